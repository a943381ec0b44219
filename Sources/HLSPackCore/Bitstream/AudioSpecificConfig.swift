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
