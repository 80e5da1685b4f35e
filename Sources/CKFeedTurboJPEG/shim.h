#ifndef KFEED_TURBOJPEG_SHIM_H
#define KFEED_TURBOJPEG_SHIM_H
// TurboJPEG 2.x (Debian 12 ships 2.1.5). TJSCALED is a function-like macro: wrapped here. No logic.
#include <turbojpeg.h>

static inline int kfeed_tj_scaled(int dimension, tjscalingfactor factor) { return TJSCALED(dimension, factor); }
#endif
