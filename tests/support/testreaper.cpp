// SPDX-License-Identifier: GPL-2.0-or-later
// trainyard-test-reaper: runs one test program and, when it ends, ends everything it left behind.
//
//     trainyard-test-reaper PROGRAM [ARGS…]
//
// Every ctest test runs under it (tests/CMakeLists.txt). A test starts executors: some itself, with
// PR_SET_PDEATHSIG (tests/support/childprocess.h), and some through the code it tests, which starts an executor the way
// the console does, detached so that it outlives the console (models/executorlocator.h). When a test dies (a crash,
// Qt Test's function timeout, ctest's timeout) such an executor would run on, holding its jobs' processes, ports and
// folders, and a later test would meet it. So this program makes itself the child subreaper (prctl(2),
// PR_SET_CHILD_SUBREAPER: orphans below it are re-parented to it rather than to init), runs the test, and once the test
// has exited sends SIGTERM to every process still below it, then SIGKILL to those left after 10 s (an executor stops
// its replicas on SIGTERM; PR_SET_PDEATHSIG ends the rest with it). Orphans that end while the test runs are reaped at
// once, as init would. SIGTERM, SIGINT and SIGHUP to this program (ctest's
// timeout) go to the test first. Exits with the test's status (128 + N when a signal N ended it).

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <set>
#include <string>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

volatile sig_atomic_t g_child = 0;

void forward(int signal)
{
    if (g_child > 0)
        ::kill(g_child, signal);
}

/// The processes whose parent is `parent` (from /proc/<pid>/stat's 4th field).
std::set<pid_t> childrenOf(pid_t parent)
{
    std::set<pid_t> children;
    DIR* proc = ::opendir("/proc");
    if (!proc)
        return children;
    while (const dirent* entry = ::readdir(proc)) {
        char* end = nullptr;
        const long pid = std::strtol(entry->d_name, &end, 10);
        if (*end != '\0' || pid <= 0)
            continue;
        const std::string path = std::string("/proc/") + entry->d_name + "/stat";
        FILE* stat = std::fopen(path.c_str(), "r");
        if (!stat)
            continue;
        char buffer[1024] = {};
        const size_t n = std::fread(buffer, 1, sizeof buffer - 1, stat);
        std::fclose(stat);
        buffer[n] = '\0';
        // "pid (comm) S ppid …": comm may hold spaces and parentheses.
        const char* close = std::strrchr(buffer, ')');
        if (!close)
            continue;
        char state = 0;
        long ppid = 0;
        if (std::sscanf(close + 1, " %c %ld", &state, &ppid) == 2 && ppid == parent && state != 'Z')
            children.insert(pid_t(pid));
    }
    ::closedir(proc);
    return children;
}

/// Reaps every child that has exited, without waiting.
void reapExited()
{
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
}

void sleepMs(long ms)
{
    timespec t { ms / 1000, (ms % 1000) * 1000000L };
    ::nanosleep(&t, nullptr);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: trainyard-test-reaper PROGRAM [ARGS...]\n");
        return 2;
    }
    if (::prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        std::fprintf(stderr, "trainyard-test-reaper: PR_SET_CHILD_SUBREAPER: %s\n", std::strerror(errno));
    struct sigaction action { };
    action.sa_handler = forward;
    ::sigemptyset(&action.sa_mask);
    for (const int s : { SIGTERM, SIGINT, SIGHUP })
        ::sigaction(s, &action, nullptr);
    const pid_t child = ::fork();
    if (child < 0) {
        std::perror("trainyard-test-reaper: fork");
        return 2;
    }
    if (child == 0) {
        ::execvp(argv[1], argv + 1);
        std::fprintf(stderr, "trainyard-test-reaper: cannot run %s: %s\n", argv[1], std::strerror(errno));
        ::_exit(127);
    }
    g_child = child;
    // Any child: the test, and the orphans re-parented to us meanwhile, which are reaped as they die (a test that kills
    // an executor it did not start waits for it to be gone, which a zombie is not).
    int status = 0;
    for (;;) {
        int s = 0;
        const pid_t ended = ::waitpid(-1, &s, 0);
        if (ended < 0 && errno == EINTR)
            continue;
        if (ended < 0)
            break; // no child left (cannot happen before the test ended)
        if (ended == child) {
            status = s;
            break;
        }
    }
    g_child = 0;
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

    // What the test left: orphans re-parented to us (and their descendants, which die with them or follow).
    reapExited();
    std::set<pid_t> left = childrenOf(::getpid());
    if (!left.empty()) {
        std::fprintf(stderr, "trainyard-test-reaper: the test left %zu process(es) running; stopping them\n",
            left.size());
        for (const pid_t pid : left)
            ::kill(pid, SIGTERM);
        for (int waited = 0; waited < 10000 && !left.empty(); waited += 50) {
            sleepMs(50);
            reapExited();
            left = childrenOf(::getpid());
        }
        for (int round = 0; round < 20 && !left.empty(); ++round) {
            for (const pid_t pid : left)
                ::kill(pid, SIGKILL);
            sleepMs(50);
            reapExited();
            left = childrenOf(::getpid());
        }
    }
    return code;
}
