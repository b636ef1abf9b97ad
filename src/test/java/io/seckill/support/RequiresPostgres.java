package io.seckill.support;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Skips a test class, with the reason, when no PostgreSQL answers on this machine: {@code mvn verify} passes
 * where there is only a JDK and Maven, and runs the PostgreSQL tests where the server is up.
 */
public class RequiresPostgres implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return PostgresTestDatabase.unavailable()
                .map(reason -> ConditionEvaluationResult.disabled("Skipped: no PostgreSQL answers at "
                        + PostgresTestDatabase.SERVER + " (" + reason + ")"))
                .orElseGet(() -> ConditionEvaluationResult.enabled("PostgreSQL answers at "
                        + PostgresTestDatabase.SERVER));
    }
}
