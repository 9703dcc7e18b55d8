import Foundation

extension DemoServer {
  /// Why the server could not start listening, in words for the person who chose the port.
  ///
  /// ```swift
  /// do { _ = try DemoServer.start(configuration: configuration) }
  /// catch let error as DemoServer.StartError { print("news: \(error)") }
  /// // news: port 8080 is already in use; choose another with --port, or --port 0 for a free one
  /// ```
  public enum StartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process listens on the port.
    case portInUse(host: String, port: Int)
    /// The port needs privileges this process does not have.
    case permissionDenied(host: String, port: Int)
    /// The address cannot be bound for another reason, given by the system.
    case cannotListen(host: String, port: Int, reason: String)

    public var description: String {
      switch self {
      case .portInUse(let host, let port):
        return "port \(port) on \(host) is already in use; choose another with --port, or --port 0 for a free one"
      case .permissionDenied(let host, let port):
        return
          "not allowed to listen on port \(port) on \(host) (ports below 1024 need privileges); choose another with --port"
      case .cannotListen(let host, let port, let reason):
        return "cannot listen on \(host):\(port): \(reason)"
      }
    }
  }
}
