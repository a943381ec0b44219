/// The `audio` object and the codec fields alternate audio renditions share.
extension ProfileLoader {
  static func readAudio(_ reader: FieldReader) throws -> AudioSettings {
    var r = reader
    let settings = try readAudioFields(&r)
    try r.finish()
    return settings
  }

  /// The codec fields shared by muxed audio and alternate audio renditions.
  static func readAudioFields(_ r: inout FieldReader) throws -> AudioSettings {
    let codec = try r.oneOf("codec", AudioCodec.allCases.map(\.rawValue)).flatMap(AudioCodec.init) ?? .aac
    if codec == .copy {
      for field in ["bitrate", "channels", "sample_rate"] where r.wasGiven(field) {
        throw r.error(field, "does not apply to audio codec \"copy\"")
      }
      return AudioSettings(codec: .copy, bitrate: 0, channels: 0, sampleRate: 0)
    }
    let ac3 = codec == .ac3
    let bitrate = try r.integer("bitrate", in: ac3 ? 32_000...640_000 : 8_000...512_000) ?? (ac3 ? 384_000 : 128_000)
    let channels = try r.integer("channels", in: 1...(ac3 ? 6 : 8)) ?? 2
    let sampleRate = try r.integer("sample_rate", in: 8_000...96_000) ?? 48_000
    let rates = ac3 ? [32000, 44100, 48000] : aacSampleRates
    guard rates.contains(sampleRate) else {
      throw r.error(
        "sample_rate",
        "\(sampleRate) is not an \(codec.rawValue.uppercased()) sample rate (\(rates.map(String.init).joined(separator: ", ")))"
      )
    }
    return AudioSettings(codec: codec, bitrate: bitrate, channels: channels, sampleRate: sampleRate)
  }
}
