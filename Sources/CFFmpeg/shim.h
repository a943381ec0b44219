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

// libavfilter is not linked: `hlspack fixture` alone uses it and opens it with
// dlopen (FilterLibrary.swift). The type of each function it looks up, taken
// from the declarations above so that a call cannot disagree with the header.
typedef __typeof__(&avfilter_graph_alloc) hlspack_avfilter_graph_alloc_fn;
typedef __typeof__(&avfilter_graph_free) hlspack_avfilter_graph_free_fn;
typedef __typeof__(&avfilter_graph_parse2) hlspack_avfilter_graph_parse2_fn;
typedef __typeof__(&avfilter_inout_free) hlspack_avfilter_inout_free_fn;
typedef __typeof__(&avfilter_pad_get_type) hlspack_avfilter_pad_get_type_fn;
typedef __typeof__(&avfilter_get_by_name) hlspack_avfilter_get_by_name_fn;
typedef __typeof__(&avfilter_graph_alloc_filter) hlspack_avfilter_graph_alloc_filter_fn;
typedef __typeof__(&avfilter_init_dict) hlspack_avfilter_init_dict_fn;
typedef __typeof__(&avfilter_link) hlspack_avfilter_link_fn;
typedef __typeof__(&avfilter_graph_config) hlspack_avfilter_graph_config_fn;
typedef __typeof__(&av_buffersrc_add_frame_flags) hlspack_av_buffersrc_add_frame_flags_fn;
typedef __typeof__(&av_buffersink_get_frame) hlspack_av_buffersink_get_frame_fn;
typedef __typeof__(&av_buffersink_get_time_base) hlspack_av_buffersink_get_time_base_fn;

#endif
