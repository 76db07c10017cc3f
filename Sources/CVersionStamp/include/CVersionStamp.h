#ifndef ARCHIVIST_CVERSIONSTAMP_H
#define ARCHIVIST_CVERSIONSTAMP_H
// The version `archivist --version` prints. make writes StampedVersion.c beside
// UnstampedVersion.c (from git: the tag, or 0.0.0-dev+COMMIT), builds, and removes it again;
// git ignores it. Its definition replaces the weak one in UnstampedVersion.c, which answers ""
// for a build made without make (`swift build`), so that such a build never shows a stale
// version left over from an earlier make.
const char *archivist_version_stamp(void);
#endif
