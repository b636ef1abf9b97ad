-- Which of these orders are in the database already, with their voucher and buyer (the writer, before it
-- inserts a batch; the sweeper, before it gives up on an entry). The ids are one array parameter (BIGINT ARRAY),
-- not an IN list: the text is the same whatever the batch's size, so H2's query cache and PostgreSQL's prepared
-- statements keep it instead of parsing a new statement for every size. Same text on H2 and PostgreSQL.
SELECT order_id, voucher_id, user_id
FROM orders
WHERE order_id = ANY(:#orderIds)
