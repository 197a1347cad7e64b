/// What registering a device for a pass did.
public enum RegistrationResult: Sendable, Equatable {
    /// A new registration (HTTP 201).
    case created
    /// The device was already registered for this pass (HTTP 200); its push token was updated if it changed.
    case alreadyRegistered
}
