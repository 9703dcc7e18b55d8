import Confluence
import ConfluenceFoundation
import ConfluenceTesting
import Foundation
import Synchronization
import XCTest

/// `NotificationCenter.Publisher`: delivery against demand, the object filter, cancel
/// removing the observer, and posts from several threads.
final class NotificationCenterPublisherTests: XCTestCase {
  private let notificationName = Notification.Name("ConfluenceTest")

  func test_deliversPostedNotifications_againstDemand_droppingTheRest() {
    let center = NotificationCenter()
    let subscriber = TestSubscriber<Notification, Never>(initialDemand: .max(2))
    center.publisher(for: notificationName).subscribe(subscriber)
    XCTAssertEqual(subscriber.subscriptionDescription, "NotificationCenter Observer")
    for page in 1...3 { center.post(name: notificationName, object: nil, userInfo: ["page": page]) }
    XCTAssertEqual(subscriber.values.map { $0.userInfo?["page"] as? Int }, [1, 2], "the third had no demand")
    subscriber.request(.max(1))
    center.post(name: notificationName, object: nil, userInfo: ["page": 4])
    XCTAssertEqual(subscriber.values.map { $0.userInfo?["page"] as? Int }, [1, 2, 4])
    XCTAssertNil(subscriber.completion, "a notification publisher never completes")
  }

  func test_objectFilter_deliversOnlyThatObjectsNotifications() {
    let center = NotificationCenter()
    let sender = NSObject()
    let subscriber = TestSubscriber<Notification, Never>()
    center.publisher(for: notificationName, object: sender).subscribe(subscriber)
    center.post(name: notificationName, object: NSObject())
    center.post(name: notificationName, object: sender)
    XCTAssertEqual(subscriber.values.count, 1)
    XCTAssertTrue(subscriber.values.first?.object as AnyObject? === sender)
  }

  func test_cancel_stopsDelivery_andReleasesTheSubscriber() {
    let center = NotificationCenter()
    let subscriber = TestSubscriber<Notification, Never>()
    center.publisher(for: notificationName).subscribe(subscriber)
    center.post(name: notificationName, object: nil)
    weak let subscription = subscriber.subscription as AnyObject?
    subscriber.cancel()
    center.post(name: notificationName, object: nil)
    XCTAssertEqual(subscriber.values.count, 1)
    XCTAssertEqual(subscriber.violations, [])
    XCTAssertNil(subscription, "the center keeps nothing of a cancelled subscription")
  }

  func test_releasingTheSubscription_withoutCancel_stopsDelivery() {
    let center = NotificationCenter()
    let count = Mutex(0)
    weak var released: AnyObject?
    do {
      let cancellable = center.publisher(for: notificationName).sink { _ in count.withLock { $0 += 1 } }
      center.post(name: notificationName, object: nil)
      released = cancellable
    }
    center.post(name: notificationName, object: nil)
    XCTAssertNil(released)
    XCTAssertEqual(count.withLock { $0 }, 1)
  }

  func test_postsFromSeveralThreads_arriveOnceEach_oneAtATime() {
    let center = NotificationCenter()
    let inside = Mutex(0)
    let overlaps = Mutex(0)
    let received = Mutex(Set<Int>())
    let cancellable = center.publisher(for: notificationName).sink { notification in
      if inside.withLock({
        $0 += 1; return $0
      }) > 1 {
        overlaps.withLock { $0 += 1 }
      }
      received.withLock { _ = $0.insert(notification.userInfo?["n"] as? Int ?? -1) }
      inside.withLock { $0 -= 1 }
    }
    let notificationName = self.notificationName
    DispatchQueue.concurrentPerform(iterations: 400) { n in
      center.post(name: notificationName, object: nil, userInfo: ["n": n])
    }
    XCTAssertEqual(received.withLock { $0 }, Set(0..<400))
    XCTAssertEqual(overlaps.withLock { $0 }, 0)
    cancellable.cancel()
  }

  func test_equality_sameCenterNameAndObject() {
    let center = NotificationCenter()
    let object = NSObject()
    XCTAssertEqual(
      center.publisher(for: notificationName, object: object), center.publisher(for: notificationName, object: object))
    XCTAssertNotEqual(
      center.publisher(for: notificationName), NotificationCenter.default.publisher(for: notificationName))
    XCTAssertNotEqual(center.publisher(for: notificationName), center.publisher(for: Notification.Name("other")))
  }
}
