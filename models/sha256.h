// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace Trainyard {

/// The SHA-256 digest of `data` (FIPS 180-4) as 64 lower-case hex characters, what
/// QCryptographicHash::hash(data, Sha256).toHex() gives, by OpenSSL: it uses the CPU's SHA instructions, several times
/// Qt 6.4's software SHA-256, and the executor hashes on every request (an access token's lookup, a Data Access audit
/// entry's chain link). Any thread.
QByteArray sha256Hex(QByteArrayView data);

} // namespace Trainyard
