// Phases and simultaneous rounds on the match page (issue 19): "Phase 2 of 3", who is
// locked this phase and who has folded (view.phase), and during a round who has planned
// (view.plans: never another seat's plan; the server does not send it).
//
// Used by the match page (match_render.js, match_socket.js, match_clocks.js): renderPhase()
// fills templates/play/_phase.html; turnText() gives the turn line during a round;
// roundNote() words a round:resolved event.

const ORDER_WORDS = {
  simultaneous: "everyone plans at once, then the plans are played together",
  single: "one round: everyone plans at once",
};

const byId = (id) => document.getElementById(id);

function show(node, visible) {
  if (node) node.hidden = !visible;
}

/** "Player 1, Player 3" from 1-based seats, with the page's names. */
function names(seats, name) {
  return seats.map((s) => name(Number(s) - 1)).join(", ");
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** Is a round of plans in progress in this view? */
export function inRound(view) {
  return Boolean(view && view.plans && !view.outcome);
}

/** Seats (0-based) still to plan. */
function toPlan(view) {
  const plans = view.plans;
  if (plans && Array.isArray(plans.to_plan)) return plans.to_plan.map((s) => s - 1);
  return view.to_move || [];
}

/**
 * The turn line during a round, or null when there is no round.
 * `you`: the seats this page holds; `words(move)`: a move in plain words.
 */
export function turnText(view, you, words) {
  if (!inRound(view)) return null;
  const waiting = toPlan(view);
  const mine = view.plans.mine;
  if (mine) {
    const others = waiting.filter((s) => !you.includes(s)).length;
    const left = plural(others, "player", "players");
    return `Your plan: ${words(mine)} (registered) · waiting for ${left}`;
  }
  if (waiting.some((s) => you.includes(s))) {
    return "Your plan: choose a move (nobody sees it until everyone has planned)";
  }
  return `Waiting for ${plural(waiting.length, "player", "players")} to plan`;
}

/** "Round 2: Ann column 1 · Bob column 2" for a round:resolved event. */
export function roundNote(event, name, words) {
  const moves = (event.moves || []).map(
    (m) => `${name(m.seat)} ${m.move ? words(m.move) : "nothing"}`,
  );
  return `Round ${event.round}: ${moves.join(" · ")}`;
}

/**
 * Fill the phase panel (templates/play/_phase.html) from a state event's view.
 * `name(seat)`: a seat's name (0-based); `you`: the seats this page holds.
 */
export function renderPhase(view, you, name, words) {
  const panel = byId("vf-phase");
  if (!panel) return;
  const phase = view && view.phase;
  const round = inRound(view);
  const locked = (phase && phase.locked_seats) || [];
  const folded = (phase && phase.folded) || [];
  const worth =
    phase && (phase.of > 1 || phase.order !== "sequential" || locked.length || folded.length);
  show(panel, Boolean(worth) || round);
  if (!worth && !round) return;

  const title = byId("vf-phase-title");
  title.textContent = phase ? `Phase ${phase.number} of ${phase.of}` : "";
  const how = byId("vf-phase-order");
  const order = phase ? ORDER_WORDS[phase.order] : "";
  const notes = [
    order,
    phase && phase.placement_only ? "placing only" : "",
    phase && phase.allow_pass ? "passing allowed" : "",
  ];
  how.textContent = notes.filter(Boolean).join(" · ");

  const lockedNode = byId("vf-phase-locked");
  lockedNode.textContent = locked.length
    ? `Locked this phase (cannot move): ${names(locked, name)}`
    : "";
  show(lockedNode, locked.length > 0);
  const foldedNode = byId("vf-phase-folded");
  foldedNode.textContent = folded.length
    ? `Folded (no more moves, may still win): ${names(folded, name)}`
    : "";
  show(foldedNode, folded.length > 0);

  const roundNode = byId("vf-round");
  show(roundNode, round);
  if (!round) return;
  const registered = view.plans.registered || [];
  const waiting = toPlan(view);
  const list = byId("vf-round-seats");
  list.replaceChildren();
  const seats = [...new Set([...registered.map((s) => s - 1), ...waiting])].sort((a, b) => a - b);
  for (const seat of seats) {
    const li = document.createElement("li");
    const planned = registered.includes(seat + 1);
    li.dataset.testid = "round-seat";
    li.dataset.planned = planned ? "1" : "0";
    const icon = document.createElement("i");
    const look = planned ? "fa-check-circle text-success" : "fa-hourglass-half text-body-secondary";
    icon.className = `fa ${look} me-1`;
    icon.setAttribute("aria-hidden", "true");
    let text = `${name(seat)}: ${planned ? "plan registered" : "still planning"}`;
    if (planned && you.includes(seat) && view.plans.mine) {
      text = `${name(seat)}: your plan, ${words(view.plans.mine)} (registered)`;
    }
    li.append(icon, text);
    list.append(li);
  }
  const summary = byId("vf-round-summary");
  const number = (view.round || 0) + 1;
  const left = plural(waiting.length, "player", "players");
  summary.textContent = `Round ${number}: waiting for ${left}`;
}

/**
 * A replay frame of a round (play/replay.py: kind "round" or "plans"), in words, or null
 * for any other frame. A plan not resolved shows as "planned" (its move is not sent).
 */
export function roundFrameText(frame, name, words) {
  if (!frame || (frame.kind !== "round" && frame.kind !== "plans")) return null;
  const parts = (frame.moves || []).map((m) => {
    if (frame.kind === "round") return `${name(m.seat)} ${m.move ? words(m.move) : "nothing"}`;
    return m.move ? `${name(m.seat)} plans ${words(m.move)}` : `${name(m.seat)} planned`;
  });
  const tail = frame.kind === "plans" ? " (round not resolved: plans stay hidden)" : "";
  return `Round ${frame.round}: ${parts.join(" · ")}${tail}`;
}
