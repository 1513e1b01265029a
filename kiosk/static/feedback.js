/* The dealer screen's answers: a line that confirms each entry ("K♥ → Anna") or says why it was
   refused, a short tone (house option) and the turn said aloud (house option) by the browser's
   speech synthesis, which on Linux speaks through speech-dispatcher and espeak-ng. */
(function (global) {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var options = { sound: false, speech: false };
  var audio = null, lastSaid = '';

  /* kind: 'ok' (a confirmation, short) or 'error' (a refusal, read longer) */
  function say(message, kind) {
    var box = $('toast');
    if (!box) return;
    kind = kind || 'error';
    box.textContent = message;
    box.className = 'toast ' + kind;
    box.dataset.kind = kind;
    box.hidden = false;
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { box.hidden = true; }, kind === 'ok' ? 2500 : 6000);
    tone(kind);
  }
  function clear() { var box = $('toast'); if (box) box.hidden = true; }

  /* a high short tone for an entry taken, a low longer one for a refusal */
  function tone(kind) {
    if (!options.sound) return;
    try {
      audio = audio || new (global.AudioContext || global.webkitAudioContext)();
      var osc = audio.createOscillator(), gain = audio.createGain(), now = audio.currentTime;
      var long = kind === 'ok' ? 0.09 : 0.3;
      osc.frequency.value = kind === 'ok' ? 880 : 220;
      gain.gain.setValueAtTime(0.25, now);
      gain.gain.exponentialRampToValueAtTime(0.001, now + long);
      osc.connect(gain).connect(audio.destination);
      osc.start(now);
      osc.stop(now + long);
    } catch (e) { /* no sound device: the line on screen still answers */ }
  }

  /* The prompt said aloud once each time it changes; written in the page's live region too,
     so a screen reader (or a test) reads what was said. */
  function speak(text, lang) {
    if (!text || text === lastSaid) return;
    lastSaid = text;
    var said = $('said');
    if (said) said.textContent = options.speech ? text : '';
    if (!options.speech || !global.speechSynthesis) return;
    var utterance = new global.SpeechSynthesisUtterance(text);
    utterance.lang = lang === 'it' ? 'it-IT' : 'en-GB';
    global.speechSynthesis.cancel();
    global.speechSynthesis.speak(utterance);
  }

  function configure(screen) {
    options.sound = !!(screen && screen.sound);
    options.speech = !!(screen && screen.speech);
  }

  global.StudFeedback = { say: say, clear: clear, speak: speak, configure: configure };
})(window);
