/// The hand-written loops of the rows shaped as RxSwift's benchmarks: every sink there adds
/// ones, so the checksum is `mix(1)` once per delivery.
extension LoopWorkloads {
  static var rxSuite: [Implementation] {
    WorkloadID.allCases.filter(\.isRxSuite).map { workload in
      let deliveries = workload == .rxSubjectPumping2 ? 2 : 1
      return .sync(.loop, workload, note: "for i in 0..<N { \(deliveries) × mix(1) }") { n in
        var hash = Work.seed
        for _ in 0..<(n * deliveries) { hash = Work.mix(hash, 1) }
        return hash
      }
    }
  }
}
