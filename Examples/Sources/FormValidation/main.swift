// "Using Combine", "Merging multiple pipelines to update UI elements": form validation
// with `combineLatest` over `@Published` properties.
//
// The form has three fields; the rules are the book's: value1 needs at least 3
// characters, value2 at least 5, and the repeat of value2 must equal it. Each rule's pipeline
// publishes the valid value or nil, and a last combineLatest enables the submit button
// when both are valid. The "UI" is printed: each label's message and the button's state.
// In an app, `receive(on: RunLoop.main)` would bring the updates to the main thread first.
import Combine

final class FormViewModel {
  @Published var value1 = ""
  @Published var value2 = ""
  @Published var value2Repeat = ""

  var validatedValue1: AnyPublisher<String?, Never> {
    $value1.map { value1 in
      value1.count > 2 ? value1 : nil
    }.eraseToAnyPublisher()
  }

  var validatedValue2: AnyPublisher<String?, Never> {
    Publishers.CombineLatest($value2, $value2Repeat)
      .map { value2, value2Repeat in
        value2Repeat == value2 && value2.count > 4 ? value2 : nil
      }.eraseToAnyPublisher()
  }

  var readyToSubmit: AnyPublisher<(String, String)?, Never> {
    Publishers.CombineLatest(validatedValue2, validatedValue1)
      .map { value2, value1 in
        guard let realValue2 = value2, let realValue1 = value1 else {
          return nil
        }
        return (realValue2, realValue1)
      }
      .eraseToAnyPublisher()
  }
}

let form = FormViewModel()
var cancellableSet: Set<AnyCancellable> = []

form.validatedValue1
  .map { $0 == nil ? "minimum of 3 characters required" : "ok" }
  .removeDuplicates()
  .sink { print("  value1 label: \($0)") }
  .store(in: &cancellableSet)

form.validatedValue2
  .map { $0 == nil ? "values must match and have at least 5 characters" : "ok" }
  .removeDuplicates()
  .sink { print("  value2 label: \($0)") }
  .store(in: &cancellableSet)

form.readyToSubmit
  .map { $0 != nil }
  .removeDuplicates()
  .sink { print("  submit button enabled: \($0)") }
  .store(in: &cancellableSet)

// The user fills the form in, field by field.
let edits: [(String, ReferenceWritableKeyPath<FormViewModel, String>, String)] = [
  ("value1", \.value1, "ab"),
  ("value1", \.value1, "abc"),
  ("value2", \.value2, "secret"),
  ("value2_repeat", \.value2Repeat, "secre"),
  ("value2_repeat", \.value2Repeat, "secret"),
  ("value1", \.value1, "a"),
  ("value1", \.value1, "abcd"),
]
for (name, keyPath, text) in edits {
  print("\(name) = \"\(text)\"")
  form[keyPath: keyPath] = text
}
