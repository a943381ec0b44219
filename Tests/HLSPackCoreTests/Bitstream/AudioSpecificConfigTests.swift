import Testing

@testable import HLSPackCore

/// The AudioSpecificConfig an ADTS header's fields stand for.
@Suite struct AudioSpecificConfigTests {
  @Test func adtsFieldsMakeTheTwoByteConfig() {
    // AAC-LC, 48 kHz (index 3), stereo: 0x11 0x90; 44.1 kHz mono: 0x12 0x08; 8 channels: configuration 7.
    #expect(AudioSpecificConfig.fromADTSFields(profile: 1, sampleRate: 48000, channels: 2) == [0x11, 0x90])
    #expect(AudioSpecificConfig.fromADTSFields(profile: 1, sampleRate: 44100, channels: 1) == [0x12, 0x08])
    #expect(AudioSpecificConfig.fromADTSFields(profile: 1, sampleRate: 48000, channels: 8) == [0x11, 0xB8])
    // What ADTS cannot say: HE-AAC's object type, an odd rate, 7 channels.
    #expect(AudioSpecificConfig.fromADTSFields(profile: 4, sampleRate: 48000, channels: 2) == nil)
    #expect(AudioSpecificConfig.fromADTSFields(profile: 1, sampleRate: 47000, channels: 2) == nil)
    #expect(AudioSpecificConfig.fromADTSFields(profile: 1, sampleRate: 48000, channels: 7) == nil)
  }
}
