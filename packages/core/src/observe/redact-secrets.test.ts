import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets, redactValue } from "./redact-secrets.js";

describe("redactSecrets", () => {
  it("redacts the credentials agents and tools print, keeping the words around them", () => {
    const cases: [string, string][] = [
      ["aws: AKIAIOSFODNN7EXAMPLE failed", `aws: ${REDACTED} failed`],
      ["key sk-ant-api03-abcdefghijklmnopqrstuvwx", `key ${REDACTED}`],
      ["OPENAI sk-proj-abcdefghijklmnopqrstuvwxyz012345", `OPENAI ${REDACTED}`],
      ["token ghp_abcdefghijklmnopqrstuvwxyz0123456789", `token ${REDACTED}`],
      ["Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig", `Authorization: ${REDACTED}`],
      [
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        `AWS_SECRET_ACCESS_KEY=${REDACTED}`,
      ],
      ['{"password": "hunter2hunter2"}', `{"password": "${REDACTED}"}`],
      ["-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", REDACTED],
    ];
    for (const [text, redacted] of cases) expect(redactSecrets(text)).toBe(redacted);
  });

  it("redacts the shortest secrets it knows, 14 and 15 characters long", () => {
    expect(redactSecrets("token=abcdefgh")).toBe(`token=${REDACTED}`);
    expect(redactSecrets("xoxb-abcdefghij")).toBe(REDACTED);
  });

  it("leaves ordinary text alone: short values, prose about tokens, hashes", () => {
    for (const text of [
      "the token count is 42",
      "password: short",
      "commit 3f2a9c1e fixed the parser",
      "Tests: 12 passed",
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });

  it("redactValue redacts every string of a payload, copying it", () => {
    const payload = { message: "AKIAIOSFODNN7EXAMPLE", list: ["ok", "AKIAIOSFODNN7EXAMPLE"], n: 3 };
    expect(redactValue(payload)).toEqual({ message: REDACTED, list: ["ok", REDACTED], n: 3 });
    expect(payload.message).toBe("AKIAIOSFODNN7EXAMPLE");
  });
});
