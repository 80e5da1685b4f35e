#ifndef KFEED_BUILD_INFO_H
#define KFEED_BUILD_INFO_H
// What the build knows about its source: the commit, defined by Package.swift from git (empty when built outside a
// git checkout, e.g. from a tarball). A function rather than a macro, so that a new commit recompiles this file alone.

/// The abbreviated commit kfeed was built from, with "-dirty" for a tree with changes, or "" when unknown.
const char *kfeed_build_commit(void);
#endif
