/// The two-byte AudioSpecificConfig (ISO/IEC 14496-3 §1.6.2.1) that an ADTS
/// header's fields stand for: the object type (the ADTS profile + 1), the
/// sampling frequency index and the channel configuration. MP4 carries it in
/// the sample entry, where ADTS carries it in every frame.
public enum AudioSpecificConfig {
  static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

  /// `profile`: FFmpeg's AAC profile (0 Main, 1 LC, 2 SSR, 3 LTP: what ADTS can say).
  /// Nil for what ADTS cannot say.
  public static func fromADTSFields(profile: Int, sampleRate: Int, channels: Int) -> [UInt8]? {
    guard (0...3).contains(profile), let index = sampleRates.firstIndex(of: sampleRate), (1...8).contains(channels),
      channels != 7
    else { return nil }
    let objectType = profile + 1
    let channelConfiguration = channels == 8 ? 7 : channels
    return [UInt8(objectType << 3 | index >> 1), UInt8((index & 1) << 7 | channelConfiguration << 3)]
  }
}

/// The ES_Descriptor of an MP4 audio sample entry's `esds` box (ISO/IEC
/// 14496-14 §5.6), read for the RFC 6381 codec string it stands for.
public enum ElementaryStreamDescriptor {
  /// "mp4a.40.N" for objectTypeIndication 0x40 (MPEG-4 Audio), N being the
  /// AudioSpecificConfig's first audioObjectType (RFC 6381 §3.3; ISO/IEC
  /// 14496-3 §1.6.2.1), else "mp4a." and the indication in hex; nil when
  /// the descriptors cannot be read. `payload`: the box's, version and flags included.
  public static func codecString(esds payload: ArraySlice<UInt8>) -> String? {
    guard let decoderConfig = decoderConfig(esds: payload), let indication = decoderConfig.first else { return nil }
    guard indication == 0x40 else { return "mp4a." + String(indication, radix: 16, uppercase: true) }
    guard let specific = decoderSpecificInfo(esds: payload), let first = specific.first else {
      return nil
    }
    var objectType = Int(first >> 3)
    if objectType == 31 {
      // audioObjectTypeExt: the next 6 bits, after 32 (§1.6.2.1, GetAudioObjectType()).
      guard specific.count >= 2 else { return nil }
      objectType = 32 + (Int(first & 0x07) << 3 | Int(specific[specific.startIndex + 1] >> 5))
    }
    return "mp4a.40.\(objectType)"
  }

  /// The DecoderSpecificInfo (an AudioSpecificConfig for MPEG-4 audio) of the
  /// DecoderConfigDescriptor (ISO/IEC 14496-1 §7.2.6.6): after
  /// objectTypeIndication and 12 more bytes, among its own descriptors.
  public static func decoderSpecificInfo(esds payload: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    decoderConfig(esds: payload).flatMap { descriptor(0x05, in: $0.dropFirst(13)) }
  }

  /// The DecoderConfigDescriptor's body inside the ES_Descriptor.
  private static func decoderConfig(esds payload: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    guard payload.count > 4,
      let es = descriptor(0x03, in: payload.dropFirst(4)), es.count >= 3
    else { return nil }
    // ES_ID, then the flags that add fields (ISO/IEC 14496-1 §7.2.6.5.1).
    let flags = es[es.startIndex + 2]
    var rest = es.dropFirst(3)
    if flags & 0x80 != 0 { rest = rest.dropFirst(2) }  // dependsOn_ES_ID
    if flags & 0x40 != 0, let length = rest.first { rest = rest.dropFirst(1 + Int(length)) }  // URLstring
    if flags & 0x20 != 0 { rest = rest.dropFirst(2) }  // OCR_ES_Id
    return descriptor(0x04, in: rest)
  }

  /// The body of the first descriptor tagged `tag` among those that tile
  /// `bytes`, each a tag and a size of 7 bits a byte, the top bit
  /// saying another follows (ISO/IEC 14496-1 §8.3.3).
  static func descriptor(_ tag: UInt8, in bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
    var at = bytes.startIndex
    while at < bytes.endIndex {
      let found = bytes[at]
      var size = 0
      var next = at + 1
      for _ in 0..<4 {
        guard next < bytes.endIndex else { return nil }
        size = size << 7 | Int(bytes[next] & 0x7F)
        next += 1
        if bytes[next - 1] & 0x80 == 0 { break }
      }
      guard size <= bytes.endIndex - next else { return nil }
      if found == tag { return bytes[next..<next + size] }
      at = next + size
    }
    return nil
  }
}
