import type { StateStore } from "@loop/core";
import { describe, expect, it } from "vitest";
import type { StateStoreSuiteOptions } from "./state-store-suite-options.js";
import { testStateStore } from "./test-state-store.js";

const valid: StateStoreSuiteOptions<StateStore> = {
  name: "store",
  create: () => {
    throw new Error("not called: the options are checked before anything is registered");
  },
  inspect: async () => null,
  corrupt: async () => {},
};

function without(name: keyof typeof valid): StateStoreSuiteOptions<StateStore> {
  const { [name]: _left, ...rest } = valid;
  return rest as StateStoreSuiteOptions<StateStore>;
}

describe("testStateStore options", () => {
  it.each(["name", "create", "inspect", "corrupt"] as const)("requires %s", (name) => {
    expect(() => testStateStore(without(name))).toThrow(`Missing required option \`${name}\``);
  });

  it("rejects options that are not an object", () => {
    const call = () => testStateStore(null as unknown as StateStoreSuiteOptions<StateStore>);
    expect(call).toThrow("testStateStore expects an options object, got null");
  });

  it("rejects mistyped options", () => {
    expect(() => testStateStore({ ...valid, name: "" })).toThrow("Option `name` must not be empty");
    expect(() => testStateStore({ ...valid, inspect: "yes" } as never)).toThrow(
      "Option `inspect` must be a function, got string",
    );
    expect(() => testStateStore({ ...valid, destroy: 1 } as never)).toThrow(
      "Option `destroy` must be a function, got number",
    );
  });
});
