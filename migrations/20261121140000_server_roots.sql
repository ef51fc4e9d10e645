-- The roots (directories) a server may work in, as a JSON array of file:// URIs.
ALTER TABLE servers ADD COLUMN roots TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(roots));
