@testable import Receiver
import Glibc
import Testing

@Suite("Configuration and fault decisions")
struct ConfigurationTests {
    @Test("out-of-range options are refused with the option's name")
    func validation() throws {
        #expect(throws: Never.self) { try ReceiverConfiguration().validate() }
        let bad: [(ReceiverConfiguration, String)] = [
            (ReceiverConfiguration(port: 70000), "--port"),
            (ReceiverConfiguration(limits: ReceiverLimits(maxParts: 0)), "--max-parts"),
            (ReceiverConfiguration(faults: FaultPlan(failRate: 1.5)), "--fail-rate"),
            (ReceiverConfiguration(faults: FaultPlan(dropRate: -0.1)), "--drop-rate"),
            (ReceiverConfiguration(faults: FaultPlan(status: 42)), "--status"),
            (ReceiverConfiguration(faults: FaultPlan(status: 101)), "--status"),
            (ReceiverConfiguration(faults: FaultPlan(delayMilliseconds: -1)), "--delay"),
            (ReceiverConfiguration(faults: FaultPlan(failFirst: -2)), "--fail-first"),
        ]
        for (configuration, option) in bad {
            let error = #expect(throws: ReceiverError.self) { try configuration.validate() }
            #expect(error?.description.contains(option) == true, "\(String(describing: error)) should name \(option)")
        }
    }

    @Test("connection and upload limits stay below the descriptor limit")
    func capacity() throws {
        #expect(try ReceiverCapacity().resolved(descriptorLimit: 1024) == (720, 240))
        #expect(try ReceiverCapacity().resolved(descriptorLimit: 1 << 20) == (10_000, 1_000))
        #expect(try ReceiverCapacity().resolved(descriptorLimit: 160) == (72, 24))
        #expect(try ReceiverCapacity(maxConnections: 100).resolved(descriptorLimit: 1024) == (100, 240))
        let error = #expect(throws: ReceiverError.self) {
            try ReceiverCapacity(maxConnections: 1000, maxUploads: 100).resolved(descriptorLimit: 1024)
        }
        #expect(error?.description.contains("1164 file descriptors") == true, "\(String(describing: error))")
        #expect(throws: ReceiverError.self) { try ReceiverCapacity(maxUploads: 0).resolved(descriptorLimit: 1024) }
        #expect(throws: ReceiverError.self) { try ReceiverConfiguration(timeouts: ReceiverTimeouts(header: .zero)).validate() }
        #expect(throws: ReceiverError.self) { try ReceiverConfiguration(timeouts: ReceiverTimeouts(minimumBodyRate: -1)).validate() }
    }

    @Test("a full disk or quota answers 507, other storage failures 500")
    func storageStatuses() {
        #expect(ReceiverError.storageFailed(reason: .outOfSpace(name: "a", errno: ENOSPC)).httpStatus == 507)
        #expect(ReceiverError.storageFailed(reason: .outOfSpace(name: "a", errno: EDQUOT)).description.contains("quota"))
        #expect(ReceiverError.storageFailed(reason: .writeFailed(name: "a", errno: EIO)).httpStatus == 500)
    }

    @Test("fail-first counts attempts per filename")
    func failFirstCounts() {
        let injector = FaultInjector(plan: FaultPlan(failFirst: 2))
        #expect(injector.recordAttempt(filename: "a.txt") == 1)
        #expect(injector.recordAttempt(filename: "b.txt") == 1)
        #expect(injector.recordAttempt(filename: "a.txt") == 2)
        #expect(injector.recordAttempt(filename: "a.txt") == nil)
        #expect(injector.recordAttempt(filename: "b.txt") == 2)
        #expect(injector.recordAttempt(filename: "b.txt") == nil)
        #expect(FaultInjector(plan: .none).recordAttempt(filename: "a.txt") == nil)
    }

    @Test("seeded decisions repeat exactly and follow the rate")
    func seededDecisions() {
        let plan = FaultPlan(failRate: 0.3, dropRate: 0.5, seed: 1234)
        let first = FaultInjector(plan: plan)
        let second = FaultInjector(plan: plan)
        var firstDecisions: [Bool] = []
        var secondDecisions: [Bool] = []
        for _ in 0..<1000 {
            firstDecisions += [first.shouldDropConnection(), first.shouldFailRandomly()]
            secondDecisions += [second.shouldDropConnection(), second.shouldFailRandomly()]
        }
        #expect(firstDecisions == secondDecisions)
        let failures = stride(from: 1, to: firstDecisions.count, by: 2).filter { firstDecisions[$0] }.count
        let drops = stride(from: 0, to: firstDecisions.count, by: 2).filter { firstDecisions[$0] }.count
        #expect((230...370).contains(failures), "about 30% of 1000, got \(failures)")
        #expect((430...570).contains(drops), "about 50% of 1000, got \(drops)")

        let other = FaultInjector(plan: FaultPlan(failRate: 0.3, dropRate: 0.5, seed: 4321))
        let otherDecisions = (0..<1000).flatMap { _ in [other.shouldDropConnection(), other.shouldFailRandomly()] }
        #expect(otherDecisions != firstDecisions)
    }

    @Test("rates 0 and 1 are never and always")
    func extremeRates() {
        let never = FaultInjector(plan: FaultPlan(failRate: 0, dropRate: 0))
        let always = FaultInjector(plan: FaultPlan(failRate: 1, dropRate: 1))
        for _ in 0..<100 {
            #expect(!never.shouldFailRandomly() && !never.shouldDropConnection())
            #expect(always.shouldFailRandomly() && always.shouldDropConnection())
        }
    }
}
