/*
 * raw_sql.h — plain-SQLite access to a session database for the sessions tests,
 * bypassing sessions/ so a test can check or tamper with what is really stored.
 * Included by one test program each (static functions); needs cmocka and sqlite3.h.
 */
#ifndef TESTS_RAW_SQL_H
#define TESTS_RAW_SQL_H

/* Runs sql on the database at path; fails the test on an error. */
static void raw_exec(const char *path, const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) fail_msg("%s: %s", sql, err);
    sqlite3_close(db);
}

/* The first column of the first row of sql as an int. */
static long long raw_int(const char *path, const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    long long v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

#endif
