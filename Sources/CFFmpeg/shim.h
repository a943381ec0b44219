// FFmpeg headers hlspack uses, plus the few macros the Clang importer drops
// (function-like or compound-literal macros). Nothing else belongs here.
#ifndef HLSPACK_CFFMPEG_SHIM_H
#define HLSPACK_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/error.h>
#include <libavutil/channel_layout.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/mathematics.h>
#include <libavutil/imgutils.h>
#include <libavutil/display.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/dovi_meta.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>

static inline int hlspack_averror(int posix_error) { return AVERROR(posix_error); }
static inline int hlspack_averror_eof(void) { return AVERROR_EOF; }
static inline int64_t hlspack_nopts_value(void) { return AV_NOPTS_VALUE; }

#endif
