internal import CFFmpeg

/// Decodes a few bytes on their own, strictly, to learn whether they are
/// valid media: `hlspack verify` decodes one decrypted access unit per
/// SAMPLE-AES segment, because a wrong key shows only in the entropy-coded
/// data a decoder reads (the slice headers stay clear).
public enum StandaloneDecodeCheck {
  public enum Codec: Sendable {
    /// One Annex B access unit that carries its SPS and PPS.
    case h264
    /// One Annex B access unit that carries its VPS, SPS and PPS.
    case hevc
    /// One or more ADTS frames.
    case aacADTS
  }

  /// Why `bytes` do not decode; nil when every frame decodes without an error
  /// or a concealed one.
  public static func problem(_ bytes: [UInt8], codec: Codec) -> String? {
    do {
      return try decode(bytes, codec: codec)
    } catch {
      return "\(error)"
    }
  }

  private static func decode(_ bytes: [UInt8], codec: Codec) throws -> String? {
    let id =
      switch codec {
      case .h264: AV_CODEC_ID_H264
      case .hevc: AV_CODEC_ID_HEVC
      case .aacADTS: AV_CODEC_ID_AAC
      }
    guard let decoder = avcodec_find_decoder(id) else {
      return "no decoder for \(codec)"
    }
    var context = avcodec_alloc_context3(decoder)
    defer { avcodec_free_context(&context) }
    guard let ctx = context else { throw FFmpegError(call: "avcodec_alloc_context3", code: hlspack_averror(ENOMEM)) }
    // Errors the decoder would otherwise conceal become return codes.
    ctx.pointee.err_recognition = AV_EF_EXPLODE | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_CAREFUL | AV_EF_CRCCHECK
    ctx.pointee.thread_count = 1
    try check(avcodec_open2(ctx, decoder, nil), "avcodec_open2")
    let packet = try Packet()
    try check(av_new_packet(packet.pointer, Int32(clamping: bytes.count)), "av_new_packet")
    guard let data = packet.pointer.pointee.data else { return "av_new_packet gave no buffer" }
    bytes.withUnsafeBufferPointer { source in
      guard let base = source.baseAddress else { return }
      data.update(from: base, count: source.count)
    }
    let sent = avcodec_send_packet(ctx, packet.pointer)
    if sent < 0 { return "the decoder refuses the bytes: \(FFmpegError.message(for: sent))" }
    try check(avcodec_send_packet(ctx, nil), "avcodec_send_packet(drain)")
    let frame = try Frame()
    var frames = 0
    while true {
      let received = avcodec_receive_frame(ctx, frame.pointer)
      if received == FFmpegError.endOfFile || received == FFmpegError.tryAgain { break }
      if received < 0 { return "decoding fails: \(FFmpegError.message(for: received))" }
      if frame.pointer.pointee.decode_error_flags != 0 { return "the decoder concealed errors in frame \(frames + 1)" }
      frames += 1
      av_frame_unref(frame.pointer)
    }
    return frames > 0 ? nil : "no frame decodes"
  }
}
