// The page of `smallgo serve`: a board played by clicks, every legal point
// labelled with its result from the JSON API, undo and redo, the perfect
// line, the game as SGF and a link that reproduces the position.
"use strict";

const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
const CELL = 40;
const $ = (id) => document.getElementById(id);

let state = { board: "3x3", komi: "0", moves: [], redo: [], answer: null };

function size(board) {
  const m = /^(\d+)x(\d+)(c?)$/i.exec(board);
  return m ? { rows: +m[1], columns: +m[2], circular: m[3] !== "" } : null;
}

function point(name, rows) {
  const column = LETTERS.indexOf(name[0].toUpperCase());
  const row = parseInt(name.slice(1), 10) - 1;
  return { column, top: rows - 1 - row };
}

function query(moves) {
  return "moves=" + encodeURIComponent(moves.join(",")) + "&komi=" + encodeURIComponent(state.komi);
}

async function get(path) {
  const response = await fetch(path);
  const json = await response.json();
  if (!response.ok) throw new Error(json.error || response.statusText);
  return json;
}

function boardPath() {
  return "/v1/" + encodeURIComponent(state.board);
}

async function refresh() {
  $("error").textContent = "";
  try {
    state.answer = await get(boardPath() + "?" + query(state.moves));
  } catch (error) {
    $("error").textContent = error.message;
    return;
  }
  draw();
  const link = "?board=" + encodeURIComponent(state.board) + "&" + query(state.moves);
  $("link").href = link;
  history.replaceState(null, "", link);
  $("line").textContent = "";
}

function draw() {
  const a = state.answer;
  const s = size(state.board);
  const svg = $("board");
  svg.innerHTML = "";
  if (!s) {
    $("status").textContent = "the page draws plain and circular boards (RxC, RxCc)";
    return;
  }
  const width = (s.columns + 1) * CELL, height = (s.rows + 1) * CELL;
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  const ns = "http://www.w3.org/2000/svg";
  const add = (tag, attributes, text) => {
    const element = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
    if (text !== undefined) element.textContent = text;
    svg.appendChild(element);
    return element;
  };
  add("rect", { x: 0, y: 0, width, height, fill: "#dcb35c" });
  const x = (c) => (c + 1) * CELL, y = (t) => (t + 1) * CELL;
  for (let t = 0; t < s.rows; t++) {
    const end = s.circular ? x(s.columns - 1) + CELL / 2 : x(s.columns - 1);
    const begin = s.circular ? x(0) - CELL / 2 : x(0);
    add("line", { x1: begin, y1: y(t), x2: end, y2: y(t), stroke: "#000" });
  }
  for (let c = 0; c < s.columns; c++) {
    add("line", { x1: x(c), y1: y(0), x2: x(c), y2: y(s.rows - 1), stroke: "#000" });
    add("text", { x: x(c), y: CELL / 3, class: "label" }, LETTERS[c]);
  }
  for (let t = 0; t < s.rows; t++) {
    add("text", { x: CELL / 3, y: y(t), class: "label" }, String(s.rows - t));
  }
  for (const [colour, fill] of [["black", "#000"], ["white", "#fff"]]) {
    for (const name of a[colour]) {
      const p = point(name, s.rows);
      add("circle", { cx: x(p.column), cy: y(p.top), r: CELL * 0.45, fill, stroke: "#000" });
    }
  }
  // A move's result for the player making it: win, draw or loss.
  const word = (result) =>
    result.winner === null ? "draw" : result.winner === a.to_move ? "win" : "loss";
  let passLabel = "-";
  a.moves.forEach((move, i) => {
    if (move.point === "pass") {
      passLabel = move.label + " (" + word(move.outcome) + ")";
      return;
    }
    const p = point(move.point, s.rows);
    if (i === 0) {
      add("circle", { cx: x(p.column), cy: y(p.top), r: CELL * 0.42, fill: "none", stroke: "#00f", "stroke-width": 2 });
    }
    add("circle", { cx: x(p.column), cy: y(p.top), r: CELL * 0.3, class: word(move.outcome), "data-move": move.point, opacity: 0.8 });
    add("text", { x: x(p.column), y: y(p.top), class: "label" }, move.label);
  });
  $("passValue").textContent = passLabel;
  const side = a.to_move;
  $("status").textContent = a.ended
    ? "game over (" + a.ended + "): " + a.result.score
    : side + " to play; perfect play gives " + a.result.score + " at komi " + a.komi_text;
  svg.onclick = (event) => {
    const move = event.target.getAttribute("data-move");
    if (move) play(move);
  };
}

function play(move) {
  state.moves.push(move);
  state.redo = [];
  refresh();
}

function sgf() {
  const s = size(state.board);
  if (!s) return "";
  const sz = s.rows === s.columns ? String(s.columns) : s.columns + ":" + s.rows;
  let text = "(;GM[1]FF[4]CA[UTF-8]AP[smallgo]SZ[" + sz + "]KM[" + state.komi + "]";
  if (s.circular) text += "TOPOLOGY[circular]";
  let colour = "B";
  for (const move of state.moves) {
    let value = "";
    if (move.toLowerCase() !== "pass") {
      const p = point(move, s.rows);
      value = String.fromCharCode(97 + p.column) + String.fromCharCode(97 + p.top);
    }
    text += ";" + colour + "[" + value + "]";
    colour = colour === "B" ? "W" : "B";
  }
  return text + ")\n";
}

async function start() {
  state.board = $("boardName").value.trim();
  state.komi = $("komi").value.trim() || "0";
  state.moves = [];
  state.redo = [];
  await refresh();
}

$("start").onclick = start;
$("pass").onclick = () => play("pass");
$("undo").onclick = () => {
  if (state.moves.length) {
    state.redo.push(state.moves.pop());
    refresh();
  }
};
$("redo").onclick = () => {
  if (state.redo.length) {
    state.moves.push(state.redo.pop());
    refresh();
  }
};
$("perfect").onclick = async () => {
  try {
    const line = await get(boardPath() + "/mainline?" + query(state.moves));
    const end = line.result ? line.result.score : "the line goes on";
    $("line").textContent = line.mainline.map((step) => step.point).join(" ") + "  (" + end + ")";
  } catch (error) {
    $("error").textContent = error.message;
  }
};
$("sgf").onclick = () => {
  const blob = new Blob([sgf()], { type: "application/x-go-sgf" });
  const anchor = document.createElement("a");
  anchor.href = URL.createObjectURL(blob);
  anchor.download = state.board + ".sgf";
  anchor.click();
};

(async () => {
  const params = new URLSearchParams(location.search);
  if (params.get("board")) $("boardName").value = params.get("board");
  if (params.get("komi")) $("komi").value = params.get("komi");
  try {
    const boards = await get("/v1/boards");
    for (const b of boards.boards) {
      const option = document.createElement("option");
      option.value = b.board;
      $("boards").appendChild(option);
    }
  } catch (error) {
    $("error").textContent = error.message;
  }
  state.board = $("boardName").value.trim();
  state.komi = $("komi").value.trim() || "0";
  state.moves = (params.get("moves") || "").split(",").filter((m) => m);
  await refresh();
})();
