// "Using Combine", `assign(to:)`: a pipeline that writes into an `@Published` property.
//
// `assign(to: &$property)` needs no AnyCancellable: the subscription lives as long as the
// property, and is cancelled when the object that owns the property goes away. (Compare
// `assign(to:on:)`, which returns an AnyCancellable and keeps the object it writes to
// alive until that is cancelled.)
import Combine

final class WeatherViewModel: ObservableObject {
  @Published var temperature = "--"
  private var display: AnyCancellable?

  init(readings: some Publisher<Double, Never>) {
    readings
      .handleEvents(receiveCancel: { print("readings subscription cancelled") })
      .map { "\($0) °C" }
      .assign(to: &$temperature)
    // Stands in for a label bound to the property.
    display = $temperature.sink { print("temperature: \($0)") }
  }

  deinit { print("view model released") }
}

let readings = PassthroughSubject<Double, Never>()
var model: WeatherViewModel? = WeatherViewModel(readings: readings)
readings.send(21.5)
readings.send(22.0)

print("the view model goes away")
model = nil

// The assignment ended with the view model: this reading goes nowhere.
readings.send(23.0)
print("done")
