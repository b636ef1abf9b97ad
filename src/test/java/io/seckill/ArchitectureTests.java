package io.seckill;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
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
     * ({@code order.SaleStateRecovery}), the stream component does not know the sweeper (it is told the sweeper's
     * min-idle time).
     */
    @ArchTest
    static final ArchRule packagesHaveNoCycles = slices().matching("io.seckill.(*)..").should().beFreeOfCycles();

    /** The {@code redis-stream:} component needs Redis, Camel and the script loader, nothing of the application. */
    @ArchTest
    static final ArchRule streamComponentKnowsNothingOfTheApplication = noClasses()
            .that().resideInAPackage("io.seckill.stream..")
            .should().dependOnClassesThat(resideInAPackage("io.seckill..")
                    .and(not(resideInAnyPackage("io.seckill.stream..", "io.seckill.lua.."))));

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
