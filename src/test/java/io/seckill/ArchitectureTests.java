package io.seckill;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The package graph's rules, on the compiled main classes: the application's ({@code io.seckill}) and the
 * {@code redis-stream:} component's, which lives in the package it would have in Apache Camel.
 */
@AnalyzeClasses(packages = { "io.seckill", "org.apache.camel.component.redis.stream" },
        importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    /**
     * No package of the application reaches itself through others: the intake does not depend on the rebuild that
     * reads orders ({@code order.SaleStateRecovery}). The stream component cannot close a cycle: it knows nothing
     * of the application (the rule below; the route tells it how often to keep entries fresh).
     */
    @ArchTest
    static final ArchRule packagesHaveNoCycles = slices().matching("io.seckill.(*)..").should().beFreeOfCycles();

    /**
     * The {@code redis-stream:} component needs Camel, Spring Data Redis, slf4j and the JDK, nothing of the
     * application: it could leave for Apache Camel as it is. (Its own package is under {@code org.apache.camel..}.)
     */
    @ArchTest
    static final ArchRule streamComponentKnowsNothingOfTheApplication = classes()
            .that().resideInAPackage("org.apache.camel.component.redis.stream..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "org.apache.camel..",
                    "org.springframework.data.redis..", "org.springframework.data.domain..", "org.slf4j..");

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
