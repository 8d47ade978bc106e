// Plays a game on the page of `smallgo serve` in headless Chromium, by
// clicks, and prints what the page shows at each position as one JSON
// object a line: the moves played (read back from the page's link), every
// point's label, class and computed fill colour in the order drawn, the
// pass button's value and the status line. tests/serve.rs runs it and
// compares each position with `smallgo analyze position`.
//
// Usage: node play.mjs URL KOMI PLIES
// Environment: CHROMIUM, the browser's executable (default
// /usr/bin/chromium); NODE_PATH is not used: puppeteer-core is imported
// from the folder PUPPETEER names (scripts/test.sh installs it into
// target/browser).
import { createRequire } from "node:module";
import path from "node:path";

const [url, komi, plies] = process.argv.slice(2);
if (!url || !komi || !plies) {
  console.error("usage: node play.mjs URL KOMI PLIES");
  process.exit(2);
}
const folder = process.env.PUPPETEER;
if (!folder) {
  console.error("play.mjs: PUPPETEER must name the folder where puppeteer-core is installed");
  process.exit(2);
}
const require = createRequire(path.join(folder, "package.json"));
const puppeteer = require("puppeteer-core");

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.setDefaultTimeout(20000);
  await page.goto(url, { waitUntil: "load" });

  // The moves in the page's link, once the board is drawn for them.
  const shown = () => page.evaluate(() => new URLSearchParams(location.search).get("moves"));
  const settle = async (moves) => {
    await page.waitForFunction(
      (moves, komi) => {
        const p = new URLSearchParams(location.search);
        return p.get("moves") === moves && p.get("komi") === komi;
      },
      {},
      moves.join(","),
      komi,
    );
  };
  const read = () =>
    page.evaluate(() => {
      const points = [...document.querySelectorAll("#board circle[data-move]")].map((circle) => ({
        move: circle.getAttribute("data-move"),
        class: circle.getAttribute("class"),
        fill: getComputedStyle(circle).fill,
        // The label is the text drawn at the circle's centre.
        label: [...document.querySelectorAll("#board text")].find(
          (t) => t.getAttribute("x") === circle.getAttribute("cx") && t.getAttribute("y") === circle.getAttribute("cy"),
        )?.textContent ?? null,
      }));
      return {
        moves: (new URLSearchParams(location.search).get("moves") || "").split(",").filter((m) => m),
        points,
        pass: document.getElementById("passValue").textContent,
        status: document.getElementById("status").textContent,
        error: document.getElementById("error").textContent,
      };
    });

  // A new game at the komi, through the page's own controls.
  await page.waitForSelector("#board circle[data-move]");
  await page.$eval("#komi", (input) => (input.value = ""));
  await page.type("#komi", komi);
  await page.click("#start");
  const moves = [];
  await settle(moves);

  for (let ply = 0; ply < Number(plies); ply++) {
    const seen = await read();
    console.log(JSON.stringify(seen));
    if (seen.error || seen.status.startsWith("game over")) break;
    // The engine's move on even plies, the last listed point on odd ones,
    // so that the game meets wins, losses and draws; the pass button when
    // no point is legal.
    const points = seen.points;
    let move;
    if (points.length === 0) {
      move = "pass";
      await page.click("#pass");
    } else {
      move = ply % 2 === 0 ? points[0].move : points[points.length - 1].move;
      await page.click(`#board circle[data-move="${move}"]`);
    }
    moves.push(move);
    await settle(moves);
  }
  // Undo then redo come back to the same position.
  const last = await read();
  if (moves.length > 0) {
    await page.click("#undo");
    await settle(moves.slice(0, -1));
    await page.click("#redo");
    await settle(moves);
    const again = await read();
    if (JSON.stringify(again) !== JSON.stringify(last)) {
      throw new Error("undo then redo shows another position: " + JSON.stringify(again));
    }
  }
  console.log(JSON.stringify({ ...last, final: true }));
  if (errors.length) throw new Error("errors in the page: " + errors.join("; "));
} finally {
  await browser.close();
}
