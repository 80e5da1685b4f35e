enum TransportBench {
    static func run(_ arguments: [String]) async throws {}
}
