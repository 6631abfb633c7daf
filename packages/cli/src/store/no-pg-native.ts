// What `require("pg-native")` finds inside the loop binary: node-postgres's optional native
// binding is not bundled, and node-postgres treats this as the package being absent (its pure
// JavaScript client is what the loop uses). Evaluated only if something asks for `pg.native`.
throw Object.assign(new Error("pg-native is not part of the loop binary"), {
  code: "MODULE_NOT_FOUND",
});
