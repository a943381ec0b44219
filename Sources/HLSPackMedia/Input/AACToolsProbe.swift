internal import CFFmpeg
import HLSPackCore

/// Finds the SBR (HE-AAC) and PS (HE-AACv2) tools of an AAC stream by
/// decoding its first frames with libavcodec, whose AAC decoder reports
/// them as the stream's profile as soon as a frame's fill element carries
/// SBR data: the only way to tell HE-AAC signalled implicitly (an ADTS
/// header or esds that says AAC-LC) from plain AAC-LC.
public enum AACToolsProbe {
  /// nil when the frames do not decode.
  public static func tools(_ probe: AACProbe) -> AACTools? {
    guard let decoder = avcodec_find_decoder(AV_CODEC_ID_AAC) else { return nil }
    var context = avcodec_alloc_context3(decoder)
    defer { avcodec_free_context(&context) }
    guard let ctx = context else { return nil }
    ctx.pointee.thread_count = 1
    if let config = probe.config, !config.isEmpty {
      let padded = Int(AV_INPUT_BUFFER_PADDING_SIZE)
      guard let extradata = av_mallocz(config.count + padded)?.assumingMemoryBound(to: UInt8.self) else { return nil }
      config.withUnsafeBufferPointer { source in
        if let base = source.baseAddress { extradata.update(from: base, count: source.count) }
      }
      ctx.pointee.extradata = extradata
      ctx.pointee.extradata_size = Int32(config.count)
    }
    guard avcodec_open2(ctx, decoder, nil) >= 0, let packet = try? Packet(), let frame = try? Frame() else {
      return nil
    }
    var decoded = 0
    for unit in probe.units where !unit.isEmpty {
      guard av_new_packet(packet.pointer, Int32(clamping: unit.count)) >= 0, let data = packet.pointer.pointee.data
      else { return nil }
      unit.withUnsafeBufferPointer { source in
        if let base = source.baseAddress { data.update(from: base, count: source.count) }
      }
      let sent = avcodec_send_packet(ctx, packet.pointer)
      av_packet_unref(packet.pointer)
      guard sent >= 0 else { continue }
      while avcodec_receive_frame(ctx, frame.pointer) >= 0 {
        decoded += 1
        av_frame_unref(frame.pointer)
      }
    }
    guard decoded > 0 else { return nil }
    let profile = ctx.pointee.profile
    return AACTools(
      sbr: profile == FF_PROFILE_AAC_HE || profile == FF_PROFILE_AAC_HE_V2, ps: profile == FF_PROFILE_AAC_HE_V2)
  }
}
