// The signed-in user's lobby socket (play/PROTOCOL.md, "Lobby socket"): an invitation
// that arrives while any page is open shows a toast with a link to the match.
const host = document.getElementById("vf-toasts");

function toast(html) {
  const box = document.createElement("div");
  box.className = "toast show align-items-center border-0 text-bg-info mb-2";
  box.setAttribute("role", "status");
  box.dataset.testid = "invitation-toast";
  box.innerHTML = `<div class="d-flex"><div class="toast-body"></div>
    <button type="button" class="btn-close me-2 m-auto" aria-label="Close"></button></div>`;
  box.querySelector(".toast-body").append(html);
  box.querySelector(".btn-close").addEventListener("click", () => box.remove());
  host.append(box);
}

function invitation(event) {
  const span = document.createElement("span");
  const link = document.createElement("a");
  link.href = event.url;
  link.className = "link-dark fw-semibold";
  link.textContent = `${event.ruleSet}: open the match`;
  span.append(`${event.from} invites you. `, link);
  toast(span);
}

function connect(delay = 1000) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/lobby/`);
  socket.addEventListener("message", (message) => {
    const event = JSON.parse(message.data);
    if (event.type === "invitation") invitation(event);
    if (event.type === "matchmaking:matched" && document.body.dataset.waitingMatch === String(event.matchId)) {
      location.href = event.url;
    }
  });
  // Whether invitations can arrive now (the browser tests wait for it).
  socket.addEventListener("open", () => (document.body.dataset.lobby = "open"));
  socket.addEventListener("close", (closed) => {
    document.body.dataset.lobby = "closed";
    if (closed.code !== 4401) setTimeout(() => connect(Math.min(delay * 2, 30000)), delay);
  });
}

if (host) connect();
