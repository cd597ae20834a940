// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// The pages of the SubmitWizard (submitwizard.h), one header and one file each; this header includes them all.

#include "wizardapppage.h"
#include "wizardbatchpage.h"
#include "wizardcomputepage.h"
#include "wizardjobpage.h"
#include "wizardoutputpage.h"
#include "wizardpage.h"
#include "wizardreviewpage.h"
#include "wizardtuningpage.h"
