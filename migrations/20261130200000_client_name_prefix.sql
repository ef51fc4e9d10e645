-- Each gateway client's naming choice: with `prefix` on (the default) it sees every tool and
-- prompt as SERVER__NAME; off, it sees an item by its own name where no other server offers the
-- same name (`gatehouse clients profile NAME --prefix off`).
ALTER TABLE clients ADD COLUMN prefix INTEGER NOT NULL DEFAULT 1 CHECK (prefix IN (0, 1));
