internal import CFFmpeg
import HLSPackCore

/// RFC 6381 codec string of an audio stream, from its parameters.
func audioCodecString(_ parameters: UnsafeMutablePointer<AVCodecParameters>) -> String? {
  switch parameters.pointee.codec_id {
  case AV_CODEC_ID_AAC:
    let config = copiedBytes(parameters.pointee.extradata, count: parameters.pointee.extradata_size)
    return CodecString.mp4a(audioSpecificConfig: config) ?? "mp4a.40.2"
  case AV_CODEC_ID_AC3: return "ac-3"
  case AV_CODEC_ID_EAC3: return "ec-3"
  case AV_CODEC_ID_MP3: return "mp4a.40.34"
  default: return nil
  }
}
