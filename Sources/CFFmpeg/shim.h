#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

// Function-like and casted macros that Swift cannot import.
static inline int vigil_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int vigil_averror_eof(void) { return AVERROR_EOF; }
static inline int vigil_averror_exit(void) { return AVERROR_EXIT; }
static inline int vigil_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int64_t vigil_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int vigil_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int vigil_averror_protocol_not_found(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
static inline int vigil_averror(int posix_error) { return AVERROR(posix_error); }
