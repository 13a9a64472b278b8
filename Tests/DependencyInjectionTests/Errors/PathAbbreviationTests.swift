import DependencyInjection
import Testing

// A resolution path too long to read in full is shown with its middle left out.

private final class PathLink {
    let next: PathLink?
    init(_ next: PathLink?) { self.next = next }
}

@Suite(.timeLimit(.minutes(1))) struct PathAbbreviationTests {
    @Test func aLongPathLeavesOutItsMiddleAndSaysHowManyStepsItLeftOut() {
        let box = DIContainer()
        box.register {
            for index in 0..<40 {
                New { resolve in try PathLink(resolve.tryResolve(PathLink.self, name: "\(index + 1)")) }
                    .named("\(index)")
            }
        }
        #expect {
            _ = try box.tryResolve(PathLink.self, name: "0")
        } throws: { error in
            let text = "\(error)"
            return text.contains("… ") && text.contains(" more …")
        }
    }
}
