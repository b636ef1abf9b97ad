package io.seckill;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The package graph's rules, on the compiled main classes. */
@AnalyzeClasses(packages = "io.seckill", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    /**
     * No package reaches itself through others: the intake does not depend on the rebuild that reads orders
     * ({@code order.SaleStateRecovery}), the stream component does not know the sweeper (the route tells it how often
     * to keep entries fresh).
     */
    @ArchTest
    static final ArchRule packagesHaveNoCycles = slices().matching("io.seckill.(*)..").should().beFreeOfCycles();

    /**
     * The {@code redis-stream:} component needs Camel, Spring Data Redis and the JDK, nothing of the application:
     * it could leave for a library of its own as it is.
     */
    @ArchTest
    static final ArchRule streamComponentKnowsNothingOfTheApplication = classes()
            .that().resideInAPackage("io.seckill.camel.redisstream..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.seckill.camel.redisstream..", "java..",
                    "org.apache.camel..", "org.springframework.data.redis..", "org.springframework.data.domain..",
                    "org.slf4j..");

    /**
     * The features refuse in their own words ({@code io.seckill.refusal}); only {@code io.seckill.api} knows what a
     * refusal is on the wire (status, problem code, headers), and the intake's HTTP binding lives there.
     */
    @ArchTest
    static final ArchRule featuresKnowNothingOfHttp = noClasses()
            .that().resideInAnyPackage("io.seckill.order..", "io.seckill.voucher..", "io.seckill.expiry..",
                    "io.seckill.deadletter..", "io.seckill.sweeper..", "io.seckill.refusal..")
            .should().dependOnClassesThat(resideInAPackage("io.seckill.api.."));
}
