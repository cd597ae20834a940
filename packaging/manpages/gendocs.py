#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the man pages of trainyard, trainyard-executor and trainyardctl and trainyardctl's bash completion
from the built programs' own --help, at build time, so that neither can drift from what the programs accept.

    gendocs.py --console BIN --executor BIN --ctl BIN --version V --date YYYY-MM-DD --sections DIR --out DIR

Two help formats are read:
- QCommandLineParser's (trainyard, trainyard-executor): "Usage: PROG [options]", the description, then
  "Options:" with two-column entries ("  --listen <ADDRESS:PORT>  Text", continued under the text column).
- trainyardctl's, gcloud's layout: sections in capitals at column 0 (NAME, SYNOPSIS, DESCRIPTION, GROUPS,
  COMMANDS, POSITIONAL ARGUMENTS, FLAGS, GLOBAL FLAGS), entries indented 4 columns and their text 8. The
  command tree is walked from `trainyardctl --help` through every group's --help; a verb whose help is one
  "usage: …" line (the inspect verbs) contributes that synopsis and the flags named in it.

What --help cannot say (environment, files, exit status, the user unit) comes from hand-written roff in
DIR/<program>.sections: ".SH TITLE" blocks; a DESCRIPTION block continues the generated description, the
others follow the options in their order.

The programs run with an empty HOME and XDG folders and the C locale, so neither a user's language setting
(the console translates its help) nor a running executor changes the output.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

CTL_FLAG = re.compile(r"--([a-z][a-z0-9-]*)(=?)")


def run_help(argv, env):
    """stdout of `argv` (which prints help and exits 0)."""
    result = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    if result.returncode != 0:
        sys.exit("gendocs: %s exited %d: %s" % (" ".join(argv), result.returncode, result.stderr.strip()))
    return result.stdout


def roff(text):
    """Escapes running text for roff: backslashes, a leading dot or quote that would start a request, and
    characters outside ASCII (the help's "…", "×"), which troff reads only as \\[uXXXX] escapes."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"[^\x00-\x7f]", lambda m: "\\[u%04X]" % ord(m.group(0)), text)
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def roff_option(text):
    """An option or command word: escaped, with every hyphen a minus so that it copies as typed."""
    return roff(text).replace("-", "\\-")


def roff_prose(text):
    """Running text in which option names (--flag, -h) keep ASCII hyphens."""
    return re.sub(r"(?<![\w-])(--?[A-Za-z][\w-]*)", lambda m: m.group(1).replace("-", "\\-"), roff(text))


# --- QCommandLineParser help ---------------------------------------------------------------------------------

def parse_qt_help(text):
    """(description, [[option column, help text]]) from QCommandLineParser::helpText(): an option line starts
    "  -", its text follows after two or more spaces, and deeper-indented lines continue the text."""
    lines = text.splitlines()
    description = []
    i = 1  # line 0 is "Usage: PROG [options]"
    while i < len(lines) and lines[i] != "Options:":
        if lines[i].strip():
            description.append(lines[i].strip())
        i += 1
    options = []
    for line in lines[i + 1:]:
        if line.startswith("  -"):
            column, _, text = line.strip().partition("  ")
            options.append([column, text.strip()])
        elif line.startswith("   ") and options:
            options[-1][1] = (options[-1][1] + " " + line.strip()).strip()
        elif not line.strip():
            break
    return " ".join(description), options


def qt_option_roff(column):
    """'-h, --help' / '--listen <ADDRESS:PORT>' as .TP heading: bold names, italic value."""
    parts = []
    for name in column.split(", "):
        m = re.match(r"^(\S+)(?: <(.+)>)?$", name)
        item = "\\fB%s\\fR" % roff_option(m.group(1))
        if m.group(2):
            item += " \\fI%s\\fR" % roff(m.group(2))
        parts.append(item)
    return ", ".join(parts)


# --- trainyardctl's help -------------------------------------------------------------------------------------

def parse_ctl_sections(text):
    """{SECTION: [lines without the 4-column indent]} of a gcloud-style help text."""
    sections = {}
    current = None
    for line in text.splitlines():
        if re.match(r"^[A-Z][A-Z ]+$", line):
            current = sections.setdefault(line, [])
        elif current is not None:
            current.append(line[4:] if line.startswith("    ") else line.strip())
    return sections


def ctl_entries(lines):
    """[(head, text)] of a section whose entries are a head line and text lines indented 4 more."""
    entries = []
    for line in lines:
        if not line.strip() or line.startswith("GROUP is") or line.startswith("COMMAND is"):
            continue
        if line.startswith("    ") and entries:
            entries[-1][1] = (entries[-1][1] + " " + line.strip()).strip()
        else:
            entries.append([line.strip(), ""])
    return entries


class CtlCommand:
    def __init__(self, path, summary):
        self.path = path  # ["jobs", "submit", "training"]
        self.summary = summary
        self.children = []  # for a group
        self.is_group = False
        self.synopsis = ""
        self.description = []
        self.positionals = []  # [(name, text)]
        self.flags = []  # [(head "--name=VALUE" or "--name VALUE", text)]
        self.global_flags = []  # the GLOBAL FLAGS entries its help repeats
        self.user_args = None  # text of "-- USER_ARGS ..."


def completion_word(head):
    """A flag's completion word: "--name=" when it takes a value ("--name=VALUE", "--name VALUE"), else "--name"."""
    m = CTL_FLAG.match(head)
    return "--" + m.group(1) + ("=" if m.group(2) or " " in head else "")


def walk_ctl(ctl, env, path=None, summary=""):
    path = path or []
    text = run_help([ctl] + path + ["--help"], env)
    node = CtlCommand(path, summary)
    if text.startswith("usage: "):
        # A verb with a one-line usage: its flags are the --names in it, a value when one follows.
        node.synopsis = text.splitlines()[0][len("usage: "):]
        for m in re.finditer(r"\[--([a-z][a-z0-9-]*)(?: ([^\]]+))?\]", node.synopsis):
            node.flags.append(("--" + m.group(1) + (" " + m.group(2) if m.group(2) else ""), ""))
        return node
    sections = parse_ctl_sections(text)
    name_line = " ".join(l.strip() for l in sections.get("NAME", []) if l.strip())
    if not summary and " - " in name_line:
        node.summary = name_line.split(" - ", 1)[1]
    node.synopsis = " ".join(l.strip() for l in sections.get("SYNOPSIS", []) if l.strip())
    if "GROUPS" in sections or "COMMANDS" in sections:
        node.is_group = True
        for section in ("GROUPS", "COMMANDS"):
            for name, text_ in ctl_entries(sections.get(section, [])):
                node.children.append(walk_ctl(ctl, env, path + [name], text_))
        node.children.sort(key=lambda c: c.path[-1])
        return node
    node.description = [l.strip() for l in sections.get("DESCRIPTION", []) if l.strip()]
    node.positionals = [tuple(e) for e in ctl_entries(sections.get("POSITIONAL ARGUMENTS", []))]
    node.flags = [tuple(e) for e in ctl_entries(sections.get("FLAGS", []))]
    for head, text_ in ctl_entries(sections.get("GLOBAL FLAGS", [])):
        if head.startswith("-- "):
            node.user_args = text_
        else:
            node.global_flags.append((head, text_))
    return node


def ctl_global_flags(root):
    """The GLOBAL FLAGS entries, as the first command whose help lists them gives them."""
    return next(leaf.global_flags for leaf in leaves(root) if leaf.global_flags)


def leaves(node):
    if not node.is_group:
        return [node]
    return [leaf for child in node.children for leaf in leaves(child)]


def groups(node):
    if not node.is_group:
        return []
    return [node] + [g for child in node.children for g in groups(child)]


def ctl_head_roff(head):
    """'--package-path=PACKAGE_PATH' or '--values NAME' as a .TP heading."""
    m = re.match(r"^(--[a-z0-9-]+)(?:([= ])(.+))?$", head)
    if not m:
        return "\\fB%s\\fR" % roff_option(head)
    text = "\\fB%s\\fR" % roff_option(m.group(1))
    if m.group(3):
        text += roff(m.group(2)) + "\\fI%s\\fR" % roff(m.group(3))
    return text


# --- man pages -----------------------------------------------------------------------------------------------

def read_sections(path):
    """[(title, roff body)] of a .sections file."""
    blocks = []
    if not os.path.exists(path):
        return blocks
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith('.\\"'):
                continue
            m = re.match(r"^\.SH\s+\"?([^\"\n]+)\"?\s*$", line)
            if m:
                blocks.append([m.group(1), ""])
            elif blocks:
                blocks[-1][1] += line
    return [(t, b.strip("\n") + "\n") for t, b in blocks]


def page_header(name, summary, version, date):
    return (
        '.\\" Generated by packaging/manpages/gendocs.py from `%s --help`; do not edit.\n'
        '.TH %s 1 %s "Trainyard %s" "User Commands"\n'
        ".nh\n.ad l\n"
        ".SH NAME\n%s \\- %s\n" % (name, name.upper(), date, version, roff_option(name), roff(summary))
    )


def with_sections(body_before, extra, description_key="DESCRIPTION"):
    """Puts the hand-written DESCRIPTION after the generated one, the other sections after the options."""
    more_description = "".join(b for t, b in extra if t == description_key)
    rest = "".join(".SH %s\n%s" % (t, b) for t, b in extra if t != description_key)
    return body_before.replace("@MORE_DESCRIPTION@\n", more_description) + rest


def qt_man_page(name, summary, help_text, extra, version, date):
    description, options = parse_qt_help(help_text)
    out = page_header(name, summary, version, date)
    out += ".SH SYNOPSIS\n.B %s\n[\\fIoptions\\fR]\n" % roff_option(name)
    out += ".SH DESCRIPTION\n%s\n@MORE_DESCRIPTION@\n" % roff_prose(description)
    out += ".SH OPTIONS\n"
    for column, text in options:
        out += ".TP\n%s\n%s\n" % (qt_option_roff(column), roff_prose(text))
    return with_sections(out, extra)


def ctl_man_page(root, global_flags, extra, version, date):
    out = page_header("trainyardctl", root.summary, version, date)
    out += ".SH SYNOPSIS\n%s\n" % roff_prose(root.synopsis)
    out += ".SH DESCRIPTION\n@MORE_DESCRIPTION@\n"
    out += ".SH COMMANDS\n"
    for leaf in leaves(root):
        out += '.SS "%s"\n' % roff_option(" ".join(leaf.path))
        out += "%s\n.PP\n" % roff_prose(leaf.summary.rstrip(".") + ".")
        out += "%s\n" % roff_prose(leaf.synopsis)
        for paragraph in leaf.description:
            out += ".PP\n%s\n" % roff_prose(paragraph)
        for name, text in leaf.positionals:
            out += ".TP\n\\fI%s\\fR\n%s\n" % (roff(name), roff_prose(text))
        for head, text in leaf.flags:
            if text:  # a one-line usage's flags have no text: its synopsis above already lists them
                out += ".TP\n%s\n%s\n" % (ctl_head_roff(head), roff_prose(text))
        if leaf.user_args:
            out += ".TP\n\\fB\\-\\-\\fR \\fIUSER_ARGS\\fR ...\n%s\n" % roff_prose(leaf.user_args)
    out += ".SH GLOBAL FLAGS\nAccepted by every command, anywhere before \\fB\\-\\-\\fR.\n"
    for head, text in global_flags:
        out += ".TP\n%s\n%s\n" % (ctl_head_roff(head), roff_prose(text))
    return with_sections(out, extra)


# --- bash completion -----------------------------------------------------------------------------------------

def completion_script(root, global_flags):
    """A completion function over the command tree. A node's key is its words joined by '/' after
    "trainyardctl" (bash's associative arrays take no empty key)."""
    def key(node):
        return "/".join(["trainyardctl"] + node.path)

    children = ['        ["%s"]="%s"' % (key(g), " ".join(c.path[-1] for c in g.children)) for g in groups(root)]
    flags = ['        ["%s"]="%s"' % (key(leaf), " ".join(completion_word(h) for h, _ in leaf.flags))
             for leaf in leaves(root)]
    value_globals = [CTL_FLAG.match(h).group(1) for h, _ in global_flags if "=" in h]
    return """# bash completion for trainyardctl -*- shell-script -*-
# Generated by packaging/manpages/gendocs.py from `trainyardctl ... --help`; do not edit.
#
# Completes group and command words, then the command's flags ("--name=" for one that takes a value)
# and the global flags; a flag's value, positionals and anything after `--` complete as file names.

_trainyardctl() {
    local -A children=(
%(children)s
    )
    local -A flags=(
%(flags)s
    )
    local globals="%(globals)s"
    local value_globals=" %(value_globals)s "
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local path=trainyardctl word i
    COMPREPLY=()
    # The command path: the words that name a group or command, skipping flags and a global flag's value
    # (bash splits "--flag=value" into "--flag", "=" and "value").
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ $word == -- ]]; then
            return 0
        elif [[ $word == = ]]; then
            ((i++))
        elif [[ $word == --* ]]; then
            [[ $value_globals == *" ${word#--} "* && ${COMP_WORDS[i + 1]} != = ]] && ((i++))
        elif [[ -n ${children[$path]+set} && " ${children[$path]} " == *" $word "* ]]; then
            path+=/$word
        fi
    done
    if [[ $cur == = || $prev == = ]]; then
        [[ $cur == = ]] && cur=
        COMPREPLY=($(compgen -f -- "$cur"))
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "${flags[$path]} $globals" -- "$cur"))
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace
    elif [[ -n ${children[$path]+set} ]]; then
        COMPREPLY=($(compgen -W "${children[$path]}" -- "$cur"))
    fi
    return 0
}
complete -o default -F _trainyardctl trainyardctl
""" % {
        "children": "\n".join(children),
        "flags": "\n".join(flags),
        "globals": " ".join(completion_word(h) for h, _ in global_flags),
        "value_globals": " ".join(value_globals),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--console", required=True)
    parser.add_argument("--executor", required=True)
    parser.add_argument("--ctl", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--sections", required=True, help="folder of the hand-written <program>.sections")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="trainyard-gendocs-") as home:
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home,
            "XDG_CONFIG_HOME": home + "/config",
            "XDG_DATA_HOME": home + "/data",
            "XDG_RUNTIME_DIR": home + "/runtime",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "QT_QPA_PLATFORM": "offscreen",
        }
        os.makedirs(env["XDG_RUNTIME_DIR"], mode=0o700)
        pages = {}
        for name, binary, summary in (
            ("trainyard", args.console, "desktop console for AI Platform Training jobs on this workstation"),
            ("trainyard-executor", args.executor, "run AI Platform Training jobs on this workstation"),
        ):
            help_text = run_help([binary, "--help"], env)
            extra = read_sections(os.path.join(args.sections, name + ".sections"))
            pages[name] = qt_man_page(name, summary, help_text, extra, args.version, args.date)
        root = walk_ctl(args.ctl, env)
        global_flags = ctl_global_flags(root)
        extra = read_sections(os.path.join(args.sections, "trainyardctl.sections"))
        pages["trainyardctl"] = ctl_man_page(root, global_flags, extra, args.version, args.date)
        completion = completion_script(root, global_flags)

    os.makedirs(args.out, exist_ok=True)
    for name, page in pages.items():
        with open(os.path.join(args.out, name + ".1"), "w", encoding="utf-8") as f:
            f.write(page)
    with open(os.path.join(args.out, "trainyardctl.bash"), "w", encoding="utf-8") as f:
        f.write(completion)


if __name__ == "__main__":
    main()
