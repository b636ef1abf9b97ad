package io.seckill.support;

/**
 * The service's database user as a DBA sets one up in production: it logs in, creates and uses the service's tables
 * in schema {@code public}, and may not create schemas (no CREATE on the database). A role of its own on the test's
 * database, dropped with it ({@link PostgresTestDatabase#createRole}).
 *
 * @param name the role, which logs in without a password (the server trusts local connections)
 */
public record PostgresUserWithoutCreate(String name) {

    /** Creates the role {@code seckill_nocreate_<random>} with those privileges on the database. */
    public static PostgresUserWithoutCreate on(PostgresTestDatabase database) {
        String role = database.createRole("seckill_nocreate_");
        database.execute(
                // The role has on the database only what PUBLIC has, which by default is no CREATE: revoked anyway,
                // so the set-up says what the test relies on.
                "REVOKE CREATE ON DATABASE " + database.name() + " FROM PUBLIC",
                // PostgreSQL 15 no longer lets PUBLIC create in schema public: the service's tables need it.
                "GRANT USAGE, CREATE ON SCHEMA public TO " + role);
        return new PostgresUserWithoutCreate(role);
    }
}
