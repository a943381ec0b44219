import HLSPackCrypto
import Testing

@Suite struct SecureRandomTests {
  @Test(arguments: [0, 1, 16, 1000])
  func length(count: Int) throws {
    #expect(try SecureRandom.bytes(count).count == count)
  }

  @Test func twoDrawsDiffer() throws {
    // 2^-128 chance of a false failure.
    #expect(try SecureRandom.bytes(16) != SecureRandom.bytes(16))
  }

  @Test func notAllZero() throws {
    // A buffer left untouched would be zeros; 2^-8000 chance of a false failure.
    #expect(try SecureRandom.bytes(1000).contains { $0 != 0 })
  }
}
