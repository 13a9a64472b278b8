/// A group of registrations that can be registered together and nested in other groups.
///
///     let featureOne = Module {
///         Shared(FeatureOneImplementation() as FeatureOne)
///         New(FeatureOneViewModelImplementation() as FeatureOneViewModel)
///     }
///     let featureTwo = Module(Shared(FeatureTwoImplementation() as FeatureTwo))
///     DIContainer.register {
///         featureOne
///         featureTwo
///     }
public struct Module {
    var plans: [any RegistrationPlan]

    init(plans: [any RegistrationPlan]) {
        self.plans = plans
    }

    /// A module of the registrations and modules the builder lists.
    public init(@RegistrationBuilder _ content: () -> Module) {
        self = content()
    }

    /// A module of one registration.
    public init<Value, Scope>(_ registration: Registration<Value, Scope>) {
        self.init(plans: [registration])
    }
}

/// Builds a ``Module`` from registrations and modules, with `if`, `if/else`, `for` and `#if`.
@resultBuilder
public enum RegistrationBuilder {
    public static func buildExpression<Value, Scope>(_ registration: Registration<Value, Scope>) -> Module {
        Module(registration)
    }

    public static func buildExpression(_ module: Module) -> Module {
        module
    }

    public static func buildBlock(_ components: Module...) -> Module {
        buildArray(components)
    }

    public static func buildArray(_ components: [Module]) -> Module {
        Module(plans: components.flatMap(\.plans))
    }

    public static func buildOptional(_ component: Module?) -> Module {
        component ?? Module(plans: [])
    }

    public static func buildEither(first component: Module) -> Module {
        component
    }

    public static func buildEither(second component: Module) -> Module {
        component
    }

    public static func buildLimitedAvailability(_ component: Module) -> Module {
        component
    }
}
