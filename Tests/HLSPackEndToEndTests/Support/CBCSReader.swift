import Foundation
import HLSPackTestSupport

/// What the cbcs tests read from init segments and fragments, with the tests'
/// own box reader (Support/ISOBMFF.swift), independent of HLSPackCore's.
enum CBCSReader {
  struct ProtectedEntry {
    var trackID: UInt32
    var type: String
    var originalFormat: String
    var schemeType: String
    var schemeVersion: UInt32
    /// The tenc payload (version/flags included).
    var tenc: [UInt8]
  }

  static func protectedEntries(_ initSegment: [UInt8]) throws -> [ProtectedEntry] {
    guard let moov = try Box.parse(initSegment[...]).first(where: { $0.type == "moov" }) else {
      throw FixtureError("no moov")
    }
    var entries: [ProtectedEntry] = []
    for trak in try moov.children() where trak.type == "trak" {
      guard let tkhd = try trak.children().first(where: { $0.type == "tkhd" }),
        let stsd = try trak.find(["mdia", "minf", "stbl", "stsd"])
      else { throw FixtureError("trak without tkhd or stsd") }
      let trackID = readBE32(tkhd.payload, tkhd.payload.startIndex + 12)
      for entry in try Box.parse(stsd.payload.dropFirst(8)) {
        let skip = entry.type == "encv" ? 78 : entry.type == "enca" ? 28 : nil
        guard let skip else { throw FixtureError("track \(trackID): sample entry \(entry.type) is not protected") }
        guard let sinf = try Box.parse(entry.payload.dropFirst(skip)).first(where: { $0.type == "sinf" }) else {
          throw FixtureError("\(entry.type) without sinf")
        }
        let parts = try sinf.children()
        guard let frma = parts.first(where: { $0.type == "frma" }),
          let schm = parts.first(where: { $0.type == "schm" }),
          let tenc = try sinf.find(["schi", "tenc"])
        else { throw FixtureError("sinf without frma, schm or schi/tenc") }
        let s = schm.payload.startIndex
        entries.append(
          ProtectedEntry(
            trackID: trackID, type: entry.type, originalFormat: String(decoding: frma.payload, as: UTF8.self),
            schemeType: String(decoding: schm.payload[(s + 4)..<(s + 8)], as: UTF8.self),
            schemeVersion: readBE32(schm.payload, s + 8),
            tenc: Array(tenc.payload)))
      }
    }
    return entries
  }

  static func compatibleBrands(_ initSegment: [UInt8]) throws -> [String] {
    guard let ftyp = try Box.parse(initSegment[...]).first(where: { $0.type == "ftyp" }) else {
      throw FixtureError("no ftyp")
    }
    return stride(from: ftyp.payload.startIndex + 8, to: ftyp.payload.endIndex, by: 4).map {
      String(decoding: ftyp.payload[$0..<$0 + 4], as: UTF8.self)
    }
  }

  /// One traf of a protected fragment: sample sizes from trun, records from senc, and what saiz/saio say.
  struct ProtectedRun {
    var trackID: UInt32
    var sampleSizes: [Int]
    var sencFlags: UInt32
    /// Per sample: (clear, protected) pairs; empty for whole-sample encryption.
    var subsamples: [[(clear: Int, protected: Int)]]
    var saizSizes: [Int]
    /// saio's offset, relative to the moof.
    var saioOffset: Int?
    /// Where senc's first record lies, relative to the moof.
    var sencRecordsOffset: Int
  }

  /// Every traf of every moof in `segment`, in order.
  static func protectedRuns(_ segment: [UInt8]) throws -> [ProtectedRun] {
    var runs: [ProtectedRun] = []
    for top in try Box.parse(segment[...]) {
      guard top.type == "moof" else { continue }
      let start = top.payload.startIndex - 8  // the moof's own offset (32-bit size)
      for traf in try top.children() where traf.type == "traf" {
        let children = try traf.children()
        guard let tfhd = children.first(where: { $0.type == "tfhd" }),
          let senc = children.first(where: { $0.type == "senc" })
        else {
          throw FixtureError("traf without tfhd or senc: \(children.map(\.type))")
        }
        let h = tfhd.payload, hs = h.startIndex
        let hflags = readBE32(h, hs) & 0xFFFFFF
        var i = hs + 8
        if hflags & 0x1 != 0 { i += 8 }
        if hflags & 0x2 != 0 { i += 4 }
        if hflags & 0x8 != 0 { i += 4 }
        let defaultSize = hflags & 0x10 != 0 ? Int(readBE32(h, i)) : 0
        var sizes: [Int] = []
        for trun in children where trun.type == "trun" {
          let r = trun.payload, rs = r.startIndex
          let rflags = readBE32(r, rs) & 0xFFFFFF
          var j = rs + 8 + (rflags & 0x1 != 0 ? 4 : 0) + (rflags & 0x4 != 0 ? 4 : 0)
          for _ in 0..<Int(readBE32(r, rs + 4)) {
            if rflags & 0x100 != 0 { j += 4 }
            if rflags & 0x200 != 0 {
              sizes.append(Int(readBE32(r, j)))
              j += 4
            } else {
              sizes.append(defaultSize)
            }
            if rflags & 0x400 != 0 { j += 4 }
            if rflags & 0x800 != 0 { j += 4 }
          }
        }
        let e = senc.payload, es = e.startIndex
        let sencFlags = readBE32(e, es) & 0xFFFFFF
        var k = es + 8
        var records: [[(Int, Int)]] = []
        for _ in 0..<Int(readBE32(e, es + 4)) {
          var record: [(Int, Int)] = []
          if sencFlags & 0x2 != 0 {
            let count = Int(e[k]) << 8 | Int(e[k + 1])
            k += 2
            for _ in 0..<count {
              record.append((Int(e[k]) << 8 | Int(e[k + 1]), Int(readBE32(e, k + 2))))
              k += 6
            }
          }
          records.append(record)
        }
        var saizSizes: [Int] = []
        if let saiz = children.first(where: { $0.type == "saiz" }) {
          let z = saiz.payload, zs = z.startIndex
          let count = Int(readBE32(z, zs + 5))
          saizSizes =
            z[zs + 4] != 0
            ? Array(repeating: Int(z[zs + 4]), count: count) : z[(zs + 9)..<(zs + 9 + count)].map(Int.init)
        }
        let saioOffset = children.first(where: { $0.type == "saio" }).map {
          Int(readBE32($0.payload, $0.payload.startIndex + 8))
        }
        runs.append(
          ProtectedRun(
            trackID: readBE32(h, hs + 4), sampleSizes: sizes, sencFlags: sencFlags, subsamples: records,
            saizSizes: saizSizes,
            saioOffset: saioOffset, sencRecordsOffset: es + 8 - start))
      }
    }
    return runs
  }
}
