import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { drawScreen, openTerminalScreen, SCREEN_CODES } from "./terminal-screen.js";

/** A fake terminal: collects what is written. */
function fakeOutput() {
  const written: string[] = [];
  return { written, output: { isTTY: true, write: (text: string) => written.push(text) } };
}

/** A fake terminal input that records raw-mode changes. */
function fakeInput() {
  const modes: boolean[] = [];
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      modes.push(mode);
      input.isRaw = mode;
      return input;
    },
  });
  return { modes, input };
}

describe("drawScreen", () => {
  it("puts each line on its row, clears it first, and clears below the last", () => {
    expect(drawScreen(["one", "two"])).toBe(
      `\u001b[1;1H${SCREEN_CODES.clearLine}one${SCREEN_CODES.resetStyle}` +
        `\u001b[2;1H${SCREEN_CODES.clearLine}two${SCREEN_CODES.resetStyle}` +
        `\u001b[3;1H${SCREEN_CODES.clearBelow}`,
    );
  });
});

describe("openTerminalScreen", () => {
  const exitListeners = process.listenerCount("exit");
  afterEach(() => {
    expect(process.listenerCount("exit")).toBe(exitListeners);
  });

  it("takes the terminal over, and restores it once", () => {
    const { written, output } = fakeOutput();
    const { modes, input } = fakeInput();
    const screen = openTerminalScreen(output, input);
    expect(written.join("")).toBe(`${SCREEN_CODES.enterAlternateScreen}${SCREEN_CODES.hideCursor}`);
    expect(modes).toEqual([true]);
    expect(process.listenerCount("exit")).toBe(exitListeners + 1);

    screen.draw(["hello"]);
    expect(written.at(-1)).toBe(drawScreen(["hello"]));

    screen.restore();
    screen.restore();
    expect(modes).toEqual([true, false]);
    expect(written.at(-1)).toBe(
      `${SCREEN_CODES.resetStyle}${SCREEN_CODES.showCursor}${SCREEN_CODES.leaveAlternateScreen}`,
    );
    const count = written.length;
    screen.draw(["after"]);
    expect(written).toHaveLength(count);
  });

  it("leaves raw mode alone when standard input is not a terminal", () => {
    const { written, output } = fakeOutput();
    const { modes, input } = fakeInput();
    input.isTTY = false;
    openTerminalScreen(output, input).restore();
    expect(modes).toEqual([]);
    expect(written.join("")).toContain(SCREEN_CODES.leaveAlternateScreen);
  });

  it("restores the screen when raw mode cannot be set", () => {
    const { written, output } = fakeOutput();
    const { input } = fakeInput();
    input.setRawMode = () => {
      throw new Error("no raw mode");
    };
    expect(() => openTerminalScreen(output, input)).toThrow("no raw mode");
    expect(written.at(-1)).toContain(SCREEN_CODES.showCursor);
    expect(written.at(-1)).toContain(SCREEN_CODES.leaveAlternateScreen);
  });
});
