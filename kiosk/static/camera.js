/* Camera card entry: proposals on the dealer screen (one tap enters a card) and, on /camera,
   the calibration of the seats' zones on a snapshot and the house settings (kiosk/camera.py). */
(function () {
  'use strict';
  var S = window.Stud, t = S.t, esc = S.esc;
  var $ = function (id) { return document.getElementById(id); };
  var dealer = document.getElementById('app');
  var page = document.getElementById('camera-app');
  var lang = (page || dealer || document.body).dataset.lang || 'it';
  var socket = null;
  var state = null;
  function connect() {
    socket = io({ auth: { role: 'dealer', lang: lang }, transports: ['websocket', 'polling'],
      reconnectionDelay: 500, reconnectionDelayMax: 3000 });
    socket.on('connect', function () { socket.emit('camera', null, apply); });
    socket.on('camera', apply);
  }

  function note(message) {
    /* on the dealer screen a refusal is answered as every other one (feedback.js) */
    if (window.StudFeedback && $('toast')) { window.StudFeedback.say(message, 'error'); return; }
    var box = $('toast') || $('camera-hint');
    if (!box) return;
    box.textContent = message; box.hidden = false;
    clearTimeout(note.timer);
    note.timer = setTimeout(function () { if (box.id === 'toast') box.hidden = true; else box.textContent = ''; }, 6000);
  }

  /* ---- dealer screen: the proposals panel ---- */
  var panel = null;
  if (dealer && !page) {
    panel = document.createElement('div');
    panel.id = 'camera-proposals';
    panel.className = 'camera-proposals';
    panel.setAttribute('data-testid', 'camera-proposals');
    var prompt = $('prompt');
    if (prompt && prompt.parentNode) prompt.parentNode.insertBefore(panel, prompt.nextSibling);
    else dealer.appendChild(panel);
    var take = function (b) {
      if (b.dataset.kind === 'show') {
        /* a down card turned up at the showdown: it joins the cards the dealer picks to show */
        document.dispatchEvent(new CustomEvent('stud:camera-show', {
          detail: { seat: Number(b.dataset.seat), card: b.dataset.card }
        }));
        return;
      }
      if (b.disabled) return;
      b.disabled = true;
      socket.timeout(8000).emit('camera_confirm', { seat: Number(b.dataset.seat), card: b.dataset.card }, function (err, ack) {
        b.disabled = false;
        if (err) note(t('live.offline'));
        else if (!ack || !ack.ok) note((ack && ack.error) || '?');
      });
    };
    /* A tap takes the proposal the finger pressed: when another proposal goes (its card entered)
       the list moves, and the button under the finger at its release may be another one, or none. */
    var pressed = {};  /* by pointer: a finger, the mouse */
    panel.addEventListener('pointerdown', function (ev) {
      var b = ev.target.closest('button[data-card]');
      if (b) pressed[ev.pointerId] = { button: b, x: ev.clientX, y: ev.clientY };
    });
    document.addEventListener('pointercancel', function (ev) { delete pressed[ev.pointerId]; });
    document.addEventListener('pointerup', function (ev) {
      var p = pressed[ev.pointerId];
      delete pressed[ev.pointerId];
      if (!p || !p.button.isConnected) return;
      if (Math.abs(ev.clientX - p.x) > 30 || Math.abs(ev.clientY - p.y) > 30) return;  /* a drag */
      take(p.button);
    });
    /* a click with no pointer (the keyboard, a switch device) */
    panel.addEventListener('click', function (ev) {
      var b = ev.target.closest('button[data-card]');
      if (b && ev.detail === 0) take(b);
    });
  }
  /* The camera sends its state with every frame it reads: the panel changes only what changed,
     so a proposal under the dealer's finger stays the same button from the press to the release
     (a button rebuilt in between would swallow the tap). */
  var panelInfo = '';
  function renderPanel() {
    if (!panel || !state) return;
    var info = '';
    if (state.status.state !== 'off' && state.status.state !== 'connected') {
      info += '<div class="camera-status" data-testid="camera-status">' + esc(state.status.text) + '</div>';
    }
    if (state.unzoned && state.unzoned.text) {
      info += '<a class="camera-unzoned" href="/camera?lang=' + esc(lang) + '" data-testid="camera-unzoned">' +
        esc(state.unzoned.text) + '</a>';
    }
    /* cards too small in the picture: few are proposed, and the camera's page says what to do */
    if (state.scale && state.scale.warning) {
      info += '<a class="camera-unzoned camera-scale-warning" href="/camera?lang=' + esc(lang) +
        '" data-testid="camera-scale-warning">' + esc(state.scale.warning) + '</a>';
    }
    (state.down_hints || []).forEach(function (h) {
      info += '<div class="camera-down-hint" style="color: var(--warn); font-weight: 600; padding: .3rem .6rem" data-seat="' + h.seat +
        '" data-testid="camera-down-hint">' +
        esc(h.text) + '</div>';
    });
    if (panelInfo !== info) {
      panel.querySelectorAll('.camera-status, .camera-unzoned, .camera-down-hint').forEach(function (n) { n.remove(); });
      panel.insertAdjacentHTML('afterbegin', info);
      panelInfo = info;
    }
    var keep = {};
    state.proposals.forEach(function (p) { keep[p.seat + ':' + p.card] = true; });
    var have = {};
    panel.querySelectorAll('button[data-card]').forEach(function (b) {
      var key = b.dataset.seat + ':' + b.dataset.card;
      if (keep[key]) have[key] = b; else b.remove();
    });
    state.proposals.forEach(function (p, i) {
      var key = p.seat + ':' + p.card, b = have[key];
      if (!b) {
        b = document.createElement('button');
        b.type = 'button';
        b.dataset.seat = p.seat; b.dataset.card = p.card;
        b.setAttribute('data-testid', 'camera-proposal');
      }
      var cls = p.state === 'ok' ? 'btn' : 'btn btn-ghost camera-flagged';
      if (b.className !== cls) b.className = cls;
      if (b.dataset.state !== p.state) b.dataset.state = p.state;
      if (b.dataset.kind !== p.kind) b.dataset.kind = p.kind;
      if (b.textContent !== p.text) b.textContent = p.text;
      var at = panel.querySelectorAll('button[data-card]')[i];
      if (at !== b) panel.insertBefore(b, at || null);  /* in the order of the proposals */
    });
    panel.hidden = info === '' && state.proposals.length === 0;
  }

  /* ---- /camera: calibration ---- */
  /* (camera-labels.js: loaded by the camera page, not by the dealer screen, which draws none) */
  var labelBox = function (g, text, corner, w, h, placed) {
    return window.StudLabels.box(g, text, corner, w, h, placed);
  };
  var zones = {}, firstCorner = null, img = null, canvas = null;
  function drawZones() {
    if (!canvas || !img) return;
    markSeats();
    canvas.width = img.clientWidth; canvas.height = img.clientHeight;
    var g = canvas.getContext('2d');
    g.clearRect(0, 0, canvas.width, canvas.height);
    g.lineWidth = 3; g.font = '20px sans-serif';
    var chosen = page ? chosenSeat() : null;
    Object.keys(zones).forEach(function (seat) {
      var z = zones[seat], w = canvas.width, h = canvas.height;
      g.strokeStyle = g.fillStyle = seat === chosen ? '#ffd400' : '#e8eef5';
      g.strokeRect(z[0] * w, z[1] * h, (z[2] - z[0]) * w, (z[3] - z[1]) * h);
      g.fillText(seat, z[0] * w + 6, z[1] * h + 22);
    });
    /* what the camera reads now, where it reads it: each card outlined, then its name */
    var readings = (state && state.readings) || [], w = canvas.width, h = canvas.height;
    g.strokeStyle = '#4fd1e8'; g.lineWidth = 2;
    readings.forEach(function (r) {
      g.beginPath();
      r.quad.forEach(function (p, i) { if (i) g.lineTo(p[0] * w, p[1] * h); else g.moveTo(p[0] * w, p[1] * h); });
      g.closePath(); g.stroke();
    });
    g.font = 'bold 18px sans-serif';
    var labels = readings.map(function (r) {
      return { card: r.card, text: r.text.split(' · ')[0], box: null };
    }), placed = [];
    labels.forEach(function (l, i) { l.box = labelBox(g, l.text, readings[i].quad[0], w, h, placed); placed.push(l.box); });
    labels.forEach(function (l) {
      g.fillStyle = 'rgba(8, 12, 18, 0.8)'; g.fillRect(l.box[0], l.box[1], l.box[2], l.box[3]);
      g.fillStyle = '#4fd1e8'; g.fillText(l.text, l.box[0] + 4, l.box[1] + l.box[3] - 6);
    });
    /* where each name went, in the picture's pixels as drawn */
    canvas.dataset.labels = JSON.stringify(labels.map(function (l) {
      return { card: l.card, box: l.box.map(Math.round) };
    }));
    if (firstCorner) {
      g.fillStyle = '#ff4040';
      g.beginPath(); g.arc(firstCorner[0] * canvas.width, firstCorner[1] * canvas.height, 6, 0, 7); g.fill();
    }
  }
  /* The house settings as the page shows them: the camera sends its state with every frame, and
     a field is written only when the saved value changed, never while the dealer is in it. */
  var FIELDS = [
    { id: 'camera-auto', key: 'auto_confirm', check: true },
    { id: 'camera-down-hints', key: 'down_hints', check: true },
    { id: 'camera-detail', key: 'detail', choice: true },
    { id: 'camera-frames', key: 'auto_frames', label: 'camera.auto_frames' },
    { id: 'camera-threshold', key: 'auto_threshold', label: 'camera.auto_threshold', percent: true },
    { id: 'camera-min-confidence', key: 'min_confidence', label: 'camera.min_confidence', percent: true }
  ];
  var shown = {};
  function showField(f, force) {
    var input = $(f.id), value = state.settings[f.key];
    if (!input || value === undefined) return;
    if (!force && (shown[f.key] === value || document.activeElement === input)) return;
    shown[f.key] = value;
    if (f.check) input.checked = !!value;
    else if (f.choice) input.value = value;
    else input.value = f.percent ? Math.round(value * 100) : value;
  }
  var shownReadings = null;
  function renderPage() {
    if (!page || !state) return;
    $('camera-status').textContent = state.status.text;
    FIELDS.forEach(function (f) { showField(f, false); });
    /* how large the cards' corner letters are: what to do while setting the camera up */
    var scale = state.scale || {}, line = $('camera-scale');
    line.hidden = !scale.text;
    line.textContent = scale.text || '';
    line.classList.toggle('small', !!scale.small);
    /* the deck the table plays, and how much of it the camera has learned */
    var d = state.deck;
    $('camera-deck').textContent = d ? t('camera.deck.table', { name: d.name }) + ' · ' +
      t('camera.deck.counts', d) : t('camera.deck.none');
    var key = JSON.stringify(state.readings || []);
    if (key === shownReadings) return;  /* the camera sends its state with every frame */
    shownReadings = key;
    var list = state.readings || [];
    $('camera-readings').innerHTML = '<span>' + esc(t(list.length ? 'camera.readings' : 'camera.readings_none')) + '</span>' +
      list.map(function (r) {
        return '<span class="reading' + (r.seat === null ? ' off-zone' : '') + '" data-card="' + esc(r.card) +
          '" data-seat="' + (r.seat === null ? '' : r.seat) + '">' + esc(r.text) + '</span>';
      }).join('');
    drawZones();
  }
  /* one setting, checked here against the field's bounds so the message names the field */
  function saveSetting(f) {
    var input = $(f.id), value;
    if (f.check) value = input.checked;
    else if (f.choice) value = input.value;
    else {
      var n = Number(input.value), min = Number(input.min), max = Number(input.max);
      if (input.value === '' || !Number.isInteger(n) || n < min || n > max) {
        note(t('camera.err.range', { what: t(f.label), min: min, max: max }));
        showField(f, true);
        return;
      }
      value = f.percent ? n / 100 : n;
    }
    var settings = {};
    settings[f.key] = value;
    socket.emit('camera_calibrate', { settings: settings }, function (ack) {
      note(ack && ack.ok ? t('camera.settings_saved') : ((ack && ack.error) || '?'));
      if (!(ack && ack.ok)) showField(f, true);
    });
  }
  /* the seat whose zone the next two taps mark: one button per seat, the chosen one pressed */
  function chosenSeat() {
    var b = page.querySelector('.camera-seats [aria-pressed="true"]');
    return b ? b.dataset.seat : null;
  }
  function markSeats() {
    page.querySelectorAll('.camera-seats [data-seat]').forEach(function (b) {
      b.dataset.zone = zones[b.dataset.seat] ? '1' : '0';
    });
  }
  if (page) {
    img = $('camera-img'); canvas = $('camera-zones');
    /* the newest frame about once a second while the page is in sight (the snapshot is renewed
       as often); a picture is swapped in only once loaded, and a camera that has no frame yet is
       asked again */
    var loading = false;
    var reload = function () {
      if (loading || document.hidden) return;
      loading = true;
      var next = new Image();
      next.onload = function () {
        loading = false;
        img.src = next.src;
        $('camera-noframe').hidden = true; canvas.hidden = false;
      };
      next.onerror = function () {
        loading = false;
        if (!img.getAttribute('src')) { $('camera-noframe').hidden = false; canvas.hidden = true; }
      };
      next.src = page.dataset.snapshot + '?t=' + Date.now();
    };
    img.addEventListener('load', drawZones);
    reload();
    setInterval(reload, 1000);
    page.querySelectorAll('.camera-seats [data-seat]').forEach(function (b) {
      b.addEventListener('click', function () {
        page.querySelectorAll('.camera-seats [data-seat]').forEach(function (o) {
          o.setAttribute('aria-pressed', o === b ? 'true' : 'false');
        });
        firstCorner = null; drawZones();
      });
    });
    canvas.addEventListener('pointerdown', function (ev) {
      var r = canvas.getBoundingClientRect();
      var p = [(ev.clientX - r.left) / r.width, (ev.clientY - r.top) / r.height];
      p = [Math.min(1, Math.max(0, p[0])), Math.min(1, Math.max(0, p[1]))];
      if (!firstCorner) { firstCorner = p; note(t('camera.tap_corner')); }
      else if (chosenSeat() !== null) {
        zones[chosenSeat()] = [Math.min(firstCorner[0], p[0]), Math.min(firstCorner[1], p[1]),
          Math.max(firstCorner[0], p[0]), Math.max(firstCorner[1], p[1])];
        firstCorner = null;
      }
      drawZones();
    });
    $('camera-clear').addEventListener('click', function () { delete zones[chosenSeat()]; drawZones(); });
    $('camera-save').addEventListener('click', function () {
      socket.emit('camera_calibrate', { zones: zones }, function (ack) {
        note(ack && ack.ok ? t('camera.saved') : ((ack && ack.error) || '?'));
      });
    });
    FIELDS.forEach(function (f) { $(f.id).addEventListener('change', function () { saveSetting(f); }); });
    window.addEventListener('resize', drawZones);
  }

  function apply(st) {
    if (!st || st.ok === false) return;
    var first = state === null;
    state = st;
    if (page && first) { zones = JSON.parse(JSON.stringify(st.zones || {})); drawZones(); }
    renderPanel(); renderPage();
  }
  /* the dealer screen listens only when a camera is configured; the calibration page always */
  if (page) connect();
  else if (dealer) {
    fetch('/api/camera', { credentials: 'same-origin' }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (st) {
      if (st && st.status && st.status.state !== 'off') { apply(st); connect(); }
    }).catch(function () {});
  }
})();
