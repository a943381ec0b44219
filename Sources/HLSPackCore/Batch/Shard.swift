/// One part of a catalog split across machines. An asset belongs to the shard
/// its name hashes to, so adding lines to a manifest never moves other assets
/// to another shard, and every shard of a run agrees without talking.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
  public var index: Int
  public var count: Int

  public static let whole = Shard(index: 0, count: 1)

  public init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  public var description: String { "\(index)/\(count)" }

  public func contains(asset: String) -> Bool { Int(Self.hash(asset) % UInt64(count)) == index }

  /// 64-bit FNV-1a of the name's UTF-8 bytes: fixed by its definition, unlike
  /// Swift's `Hasher`, which is seeded anew in every process.
  static func hash(_ name: String) -> UInt64 {
    name.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
  }

  public struct Failure: Error, Equatable, CustomStringConvertible {
    public var description: String
  }

  /// The shard from `--shard K/N`, or from the index an engine gives each
  /// task (Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX`; AWS Batch array
  /// jobs: `AWS_BATCH_JOB_ARRAY_INDEX`) with the count from `--shards N` or
  /// `HLSPACK_SHARDS`. Neither: the whole manifest.
  public static func resolve(option: String?, count: Int?, environment: [String: String]) throws(Failure) -> Shard {
    if let option {
      let parts = option.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, (0..<n).contains(k)
      else {
        throw Failure(description: "--shard: expected K/N with 0 <= K < N (e.g. 0/4), found \"\(option)\"")
      }
      if count != nil { throw Failure(description: "--shards: give either --shard K/N or --shards N") }
      return Shard(index: k, count: n)
    }
    let indexVariables = ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"]
    let given = indexVariables.compactMap { name in environment[name].map { (name, $0) } }
    let n: Int
    if let count {
      n = count
    } else if let text = environment["HLSPACK_SHARDS"] {
      guard let value = Int(text) else {
        throw Failure(description: "HLSPACK_SHARDS: expected a whole number, found \"\(text)\"")
      }
      n = value
    } else {
      if let (name, _) = given.first {
        throw Failure(description: "\(name) is set but the number of shards is not: give --shards N or HLSPACK_SHARDS")
      }
      return .whole
    }
    guard (1...1_000_000).contains(n) else {
      throw Failure(description: "the number of shards must be 1 to 1000000, found \(n)")
    }
    guard let (name, text) = given.first else {
      throw Failure(
        description:
          "\(n) shards, but no shard index: give --shard K/\(n), or run where JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX is set"
      )
    }
    guard let k = Int(text), (0..<n).contains(k) else {
      throw Failure(description: "\(name): expected a shard index from 0 to \(n - 1), found \"\(text)\"")
    }
    return Shard(index: k, count: n)
  }
}
