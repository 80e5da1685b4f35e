#include "CKFeedBuildInfo.h"

#ifndef KFEED_COMMIT
#define KFEED_COMMIT ""
#endif

const char *kfeed_build_commit(void) { return KFEED_COMMIT; }
