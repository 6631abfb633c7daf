import { describe, expect, it } from "vitest";
import { isSafeTerminalId, sanitizeTerminalId } from "./safe-terminal-id.js";
import { getTerminalId, TERMINAL_ID_SOURCES } from "./terminal-id.js";

describe("getTerminalId", () => {
  it.each([
    ["LOOP_TERMINAL_ID, without a prefix", { LOOP_TERMINAL_ID: "review" }, "review"],
    [
      "LOOP_TERMINAL_ID before any terminal variable",
      { LOOP_TERMINAL_ID: "mine", TMUX_PANE: "%3", ITERM_SESSION_ID: "w0t0p0:X" },
      "mine",
    ],
    ["tmux", { TMUX_PANE: "%3" }, sanitizeTerminalId("tmux-%3")],
    [
      "tmux before the terminal window it runs in",
      { TMUX_PANE: "%3", TERM_SESSION_ID: "ABC", KITTY_WINDOW_ID: "1" },
      sanitizeTerminalId("tmux-%3"),
    ],
    ["zellij", { ZELLIJ_SESSION_NAME: "work", ZELLIJ_PANE_ID: "2" }, "zellij-work-2"],
    ["zellij without a pane id is skipped", { ZELLIJ_SESSION_NAME: "work" }, "default"],
    ["screen", { STY: "1234.pts-0.host", WINDOW: "1" }, "screen-1234.pts-0.host-1"],
    ["WezTerm", { WEZTERM_PANE: "0" }, "wezterm-0"],
    ["kitty", { KITTY_WINDOW_ID: "3" }, "kitty-3"],
    [
      "iTerm2 before the TERM_SESSION_ID it also sets",
      { ITERM_SESSION_ID: "w0t0p0:ABC", TERM_SESSION_ID: "w0t0p0:ABC" },
      sanitizeTerminalId("iterm-w0t0p0:ABC"),
    ],
    [
      "macOS Terminal",
      { TERM_SESSION_ID: "6E1A3F5C-1B2C-4D5E-8F90-123456789ABC" },
      "terminal-6E1A3F5C-1B2C-4D5E-8F90-123456789ABC",
    ],
    [
      "Windows Terminal",
      { WT_SESSION: "0f9d3c1e-2b4a-4c6d-8e0f-1a2b3c4d5e6f" },
      "wt-0f9d3c1e-2b4a-4c6d-8e0f-1a2b3c4d5e6f",
    ],
    ["Alacritty", { ALACRITTY_WINDOW_ID: "94489280512" }, "alacritty-94489280512"],
    ["Konsole", { KONSOLE_DBUS_SESSION: "/Sessions/1" }, sanitizeTerminalId("konsole-/Sessions/1")],
    [
      "GNOME Terminal",
      { GNOME_TERMINAL_SCREEN: "/org/gnome/Terminal/screen/1a2b" },
      sanitizeTerminalId("gnome-/org/gnome/Terminal/screen/1a2b"),
    ],
    ["X11 WINDOWID", { WINDOWID: "62914566" }, "x11-62914566"],
    ["VS Code's variables are not ids", { TERM_PROGRAM: "vscode", VSCODE_PID: "42" }, "default"],
    ["nothing set", {}, "default"],
    ["blank variables count as unset", { LOOP_TERMINAL_ID: "  ", TMUX_PANE: "" }, "default"],
    [
      "an undefined variable counts as unset",
      { TMUX_PANE: undefined, KITTY_WINDOW_ID: "9" },
      "kitty-9",
    ],
    [
      "a hostile LOOP_TERMINAL_ID",
      { LOOP_TERMINAL_ID: "../../etc" },
      sanitizeTerminalId("../../etc"),
    ],
  ])("%s", (_name, environment, expected) => {
    const id = getTerminalId(environment);
    expect(id).toBe(expected);
    expect(isSafeTerminalId(id)).toBe(true);
  });

  it("uses the fallback when nothing names the terminal, made safe", () => {
    expect(getTerminalId({}, { fallback: "ci" })).toBe("ci");
    expect(getTerminalId({}, { fallback: "a/b" })).toBe(sanitizeTerminalId("a/b"));
    expect(getTerminalId({}, null)).toBe("default");
    expect(getTerminalId({ KITTY_WINDOW_ID: "1" }, { fallback: "ci" })).toBe("kitty-1");
  });

  it("keeps the same raw value from different programs apart", () => {
    expect(getTerminalId({ KITTY_WINDOW_ID: "1" })).not.toBe(getTerminalId({ WEZTERM_PANE: "1" }));
  });

  it("always gives a safe id, whatever the variables hold", () => {
    const values = [
      "../../etc",
      "a/b",
      "..",
      ".",
      "x".repeat(10_240),
      "a\u0000b",
      "a\nb",
      "🚀",
      "C:\\x",
    ];
    for (const source of TERMINAL_ID_SOURCES) {
      for (const value of values) {
        const environment = Object.fromEntries(source.variables.map((name) => [name, value]));
        expect(
          isSafeTerminalId(getTerminalId(environment)),
          `${source.prefix} ${value.slice(0, 10)}`,
        ).toBe(true);
      }
    }
  });

  it("gives every source a distinct prefix per program", () => {
    const prefixes = TERMINAL_ID_SOURCES.map((source) => source.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});
