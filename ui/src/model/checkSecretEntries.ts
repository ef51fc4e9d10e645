// Cross-checks a parsed secret list (env vars or headers) against the plain list and the
// secrets already stored in the keyring, with the engine's own error wording.

type NamedValue = { name: string; value: string };

type SecretCheckInput = {
  /** Names in the plain (non-secret) list of the same kind. */
  plainNames: readonly string[];
  secrets: readonly NamedValue[];
  /** Names of the secrets the saved server already has in the keyring (empty when adding). */
  storedNames: readonly string[];
  /** HTTP header names compare case-insensitively; environment keys do not. */
  caseInsensitive: boolean;
};

/**
 * Returns one message per problem: a name in both lists is "set twice"; an empty secret value
 * means "keep the stored one" and is only valid for a name that is stored already (exact
 * match, as the engine checks), otherwise the secret "needs a value".
 */
export function checkSecretEntries({ plainNames, secrets, storedNames, caseInsensitive }: SecretCheckInput): string[] {
  const fold = (name: string) => (caseInsensitive ? name.toLowerCase() : name);
  const plain = new Set(plainNames.map(fold));
  const errors: string[] = [];
  for (const { name, value } of secrets) {
    if (plain.has(fold(name))) errors.push(`\`${name}\` is set twice`);
    else if (value === "" && !storedNames.includes(name)) errors.push(`the secret \`${name}\` needs a value`);
  }
  return errors;
}
