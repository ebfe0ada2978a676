// Talking to the server: over the websocket while it is open, else the polling fallback (the
// state endpoint every few seconds, moves POSTed with the CSRF token); a lost socket is opened
// again after a growing delay, and the table is polled meanwhile.

const POLL_MS = 1500;
const OPEN_TIMEOUT_MS = 3000;
const FIRST_RECONNECT_MS = 500;
const MAX_RECONNECT_MS = 30000;

export class Connection {
  constructor(table) {
    this.table = table;
    this.config = table.config;
    this.socket = null;
    this.open = false;
    this.reconnectDelay = FIRST_RECONNECT_MS;
    this.pollTimer = null;
  }

  start() {
    this.setState("connecting");
    this.connect();
  }

  setState(state) {
    const { connection, connectionText } = this.table.parts;
    connection.dataset.state = state;
    connectionText.textContent = this.table.labels.connection[state] ?? state;
  }

  send(action, sequence) {
    if (this.open) {
      this.socket.send(JSON.stringify({ type: "act", action, sequence }));
    } else {
      this.post({ action, sequence });
    }
  }

  async post(message) {
    const table = this.table;
    try {
      const response = await fetch(this.config.actUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": this.config.csrfToken },
        body: JSON.stringify(message),
      });
      const body = await response.json();
      if (body.error) {
        table.showError(body.error);
      }
      if (body.view) {
        table.applyView(body.view);
      } else {
        table.setPending(false);
        table.render();
      }
    } catch {
      table.setPending(false);
      table.showError(table.labels.sendFailed);
      table.render();
    }
  }

  async refresh() {
    if (this.open) {
      this.socket.send(JSON.stringify({ type: "sync", since: this.table.view.sequence }));
      return;
    }
    try {
      const response = await fetch(this.config.stateUrl, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      const body = response.ok ? await response.json() : null;
      if (body && !this.table.pending) {
        this.table.applyView(body);
      }
    } catch {
      // The next poll tries again.
    }
  }

  startPolling() {
    if (this.pollTimer === null) {
      this.pollTimer = setInterval(() => this.refresh(), POLL_MS);
      this.setState("polling");
    }
  }

  stopPolling() {
    if (this.pollTimer !== null) {
      clearInterval(this.pollTimer);
      this.pollTimer = null;
    }
  }

  connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    let opened = false;
    let socket;
    try {
      socket = new WebSocket(scheme + window.location.host + this.config.socketPath);
    } catch {
      this.startPolling();
      return;
    }
    this.socket = socket;
    // A socket that neither opens nor fails (a proxy that swallows it): poll meanwhile.
    const openTimer = setTimeout(() => {
      if (!opened) {
        this.startPolling();
      }
    }, OPEN_TIMEOUT_MS);
    socket.addEventListener("open", () => {
      opened = true;
      this.open = true;
      this.reconnectDelay = FIRST_RECONNECT_MS;
      clearTimeout(openTimer);
      this.stopPolling();
      this.setState("live");
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "view") {
        this.table.applyView(message.view);
      } else if (message.type === "error") {
        this.table.showError(message.message);
      }
    });
    socket.addEventListener("close", () => {
      clearTimeout(openTimer);
      this.open = false;
      this.socket = null;
      if (this.table.pending) {
        // The answer to a move is lost with the socket; the poll below shows what happened.
        this.table.setPending(false);
        this.table.render();
      }
      this.startPolling();
      this.setState(opened ? "reconnecting" : "polling");
      this.refresh();
      setTimeout(() => this.connect(), this.reconnectDelay);
      this.reconnectDelay = Math.min(this.reconnectDelay * 2, MAX_RECONNECT_MS);
    });
  }
}
