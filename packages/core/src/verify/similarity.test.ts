import { describe, expect, it } from "vitest";
import { contentWords } from "./content-words.js";
import { similarity } from "./similarity.js";
import { stem } from "./stem.js";
import { wordSimilarity } from "./word-similarity.js";

// The seed's plan (loop-code "Example Plan File" and "Practical Verification").
const seedTasks = [
  "Design database schema for users table",
  "Implement password hashing utility",
  "Create login endpoint",
  "Write unit tests for auth module",
  "Verify all tests pass and document API",
];
const authenticate = "User can authenticate with email/password";
const bcrypt = "Password hashing uses bcrypt";
const jwt = "Login endpoint returns JWT token";

/** [task, requirement, matched at 0.8, why] */
const verdicts: [string, string, boolean, string][] = [
  // The seed's tasks never say what its requirements demand (bcrypt, a JWT, email/password
  // sign-in): every pair fails, and the requirement stays open until a task says it or its
  // box is checked.
  ...seedTasks.flatMap((task): [string, string, boolean, string][] =>
    [authenticate, bcrypt, jwt].map((requirement) => [task, requirement, false, "seed pair"]),
  ),
  ["Use bcrypt for password hashing", bcrypt, true, "word order"],
  ["Hash passwords with bcrypt", bcrypt, true, "inflection: hash/hashing, passwords"],
  ["Authenticate users with email and password", authenticate, true, "inflection"],
  ["Implement email/password authentication", authenticate, true, "authenticate/authentication"],
  ["Add user authentification via email and pasword", authenticate, true, "two typos"],
  ["Hash passwords with bcrpyt", bcrypt, true, "transposed letters"],
  ["Implement the login endpoint that returns a JWT token", jwt, true, "filler"],
  ["Return a JWT token from the login endpoint", jwt, true, "order and filler"],
  ["Write a JWT token response for the login endpoint", jwt, true, "4 of 5 words: exactly 0.8"],
  ["Add support for dark mode", "Dark mode", true, "filler: add support for"],
  ["Document the REST API", "API is documented", true, "document/documented"],
  ["Verify all tests pass and document API", "All tests pass", true, "task says more"],
  ["Set up CI pipeline", "CI pipeline is set up", true, "set up is filler"],
  ["Validate email format on signup", "Email format is validated on sign-up", true, "sign-up"],
  ["Users can log in with email", "Log in with e-mail", true, "log in, e-mail"],
  ["Add colour theme", "Add color theme", true, "spelling variant"],
  ["Create login endpoint", "Create user profile page", false, "unrelated, shared filler"],
  ["Add tests for parser", "Add tests for renderer", false, "unrelated, one shared word"],
  ["Delete user accounts", "Users can delete posts", false, "half the words"],
  ["Add HTTP 401 response for invalid tokens", "Invalid tokens get HTTP 403", false, "numbers"],
  ["Cache API responses", "API responses are cached for 5 minutes", false, "detail missing"],
  [
    "Write unit tests for number formatting",
    "Unit tests cover formatting and localisation",
    false,
    "half",
  ],
  ["Fix flaky parser tests", "Parser tests are not flaky", false, "negation: limitation"],
  ["Make parser tests flaky", "Parser tests are not flaky", false, "negation"],
];

describe("similarity verdicts at 0.8", () => {
  it("has a table of at least 25 pairs", () => {
    expect(verdicts.length).toBeGreaterThanOrEqual(25);
  });

  it.each(verdicts)("%s ⟶ %s: %s (%s)", (task, requirement, expected) => {
    expect(similarity(task, requirement) >= 0.8).toBe(expected);
  });
});

describe("similarity scores", () => {
  it.each([
    ["Implement password hashing utility", bcrypt, 0.666667],
    ["Create login endpoint", jwt, 0.4],
    ["Add user authentification via email and pasword", authenticate, 0.897727],
    ["Write a JWT token response for the login endpoint", jwt, 0.8],
  ])("%s ⟶ %s = %d", (task, requirement, score) => {
    expect(similarity(task, requirement)).toBe(score);
  });

  it("is 1 for identical texts", () => {
    for (const text of [...seedTasks, authenticate, bcrypt, jwt, "It should work", "Done"]) {
      expect(similarity(text, text)).toBe(1);
    }
  });

  it("is 0 when either text has no word", () => {
    expect(similarity("", bcrypt)).toBe(0);
    expect(similarity(bcrypt, "")).toBe(0);
    expect(similarity("", "")).toBe(0);
    expect(similarity("!!! --- ...", "!!! --- ...")).toBe(0);
  });

  it("is not symmetric: extra task words are ignored, missing requirement words count", () => {
    expect(similarity("Verify all tests pass and document API", "All tests pass")).toBe(1);
    expect(similarity("All tests pass", "Verify all tests pass and document API")).toBe(0.4);
  });

  it("compares all words when the requirement has only stop words and filler", () => {
    expect(contentWords("It is done")).toEqual([]);
    expect(similarity("It is done", "It is done")).toBe(1);
    expect(similarity("It was done", "It is done")).toBe(0.666667);
  });

  it("stays in [0, 1]", () => {
    const texts = [...seedTasks, authenticate, bcrypt, jwt, "", "a a a", "x"];
    for (const left of texts) {
      for (const right of texts) {
        const score = similarity(left, right);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
      }
    }
  });
});

describe("contentWords", () => {
  it.each([
    ["Implement password hashing utility", ["password", "hash", "util"]],
    [authenticate, ["authentic", "email", "password"]],
    ["As a user, I can log in with my e-mail", ["login", "email"]],
    ["Admins can delete users", ["admin", "delet", "user"]],
    ["User can not log in", ["not", "login"]],
    ["Café naïve façade", ["caf", "naiv", "facad"]],
    ["Add tests, tests and more TESTS", ["test"]],
  ])("%s → %j", (text, words) => {
    expect(contentWords(text)).toEqual(words);
  });
});

describe("stem", () => {
  it.each([
    [["hash", "hashes", "hashing", "hashed"], "hash"],
    [["authenticate", "authentication", "authenticated", "authenticating"], "authentic"],
    [["localisation", "localization", "localised", "localize"], "local"],
    [["format", "formats", "formatting", "formatted"], "format"],
    [["test", "tests", "testing", "tested"], "test"],
    [["utility", "utilities"], "util"],
    [["document", "documented", "documentation"], "docu"],
    [["cache", "caching", "cached"], "cach"],
    [["validate", "validation", "validated"], "valid"],
    [["update", "updated", "updates"], "upd"],
  ])("%j → %s", (words, expected) => {
    for (const word of words) expect(stem(word)).toBe(expected);
  });

  it("keeps short, vowel-less and numeric words", () => {
    expect(stem("string")).toBe("string");
    expect(stem("uses")).toBe("use");
    expect(stem("status")).toBe("status");
    expect(stem("v2s")).toBe("v2s");
  });
});

describe("wordSimilarity", () => {
  it.each([
    ["password", "password", 1],
    ["pasword", "password", 0.875],
    ["authentific", "authentic", 1 - 2 / 11],
    ["bcrpyt", "bcrypt", 1 - 1 / 6],
    ["test", "text", 0], // 4 letters: exact only
    ["login", "logout", 0], // 3 edits
    ["format", "normat", 0], // first letter differs
    ["401", "403", 0], // digits: exact only
    ["signin", "signup", 0],
  ])("%s ~ %s = %d", (left, right, expected) => {
    expect(wordSimilarity(left, right)).toBeCloseTo(expected, 10);
    expect(wordSimilarity(right, left)).toBeCloseTo(expected, 10);
  });
});
