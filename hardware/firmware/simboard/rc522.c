// Register numbers and commands: NXP's MFRC522 data sheet (9.2, 10.3); card behaviour: ISO/IEC
// 14443-3 (type A states IDLE, READY, ACTIVE, HALT; ATQA, anticollision, SAK, CRC_A).
#include "rc522.h"

#include <string.h>

#include "sim_cycle_timers.h"

enum { IDLE, READY, ACTIVE, HALT };

#define CommandReg 0x01
#define ComIrqReg 0x04
#define DivIrqReg 0x05
#define ErrorReg 0x06
#define FIFODataReg 0x09
#define FIFOLevelReg 0x0A
#define ControlReg 0x0C
#define BitFramingReg 0x0D
#define TModeReg 0x2A
#define TPrescalerReg 0x2B
#define TReloadRegH 0x2C
#define TReloadRegL 0x2D
#define VersionReg 0x37

#define CMD_IDLE 0x00
#define CMD_TRANSCEIVE 0x0C
#define CMD_SOFTRESET 0x0F

#define VERSION 0x92  // MFRC522 version 2.0
#define BIT_US 9.44   // one bit at 106 kbit/s
#define ANSWER_US 90  // a card answers ~86 us after the end of a frame

static void crc_a(const uint8_t *data, int length, uint8_t *out)
{
	uint16_t crc = 0x6363;
	for (int i = 0; i < length; i++) {
		uint8_t ch = data[i] ^ (uint8_t)(crc & 0xFF);
		ch ^= (uint8_t)(ch << 4);
		crc = (crc >> 8) ^ ((uint16_t)ch << 8) ^ ((uint16_t)ch << 3) ^ (ch >> 4);
	}
	out[0] = crc & 0xFF;
	out[1] = crc >> 8;
}

static int crc_ok(const uint8_t *frame, int length)
{
	uint8_t crc[2];
	crc_a(frame, length - 2, crc);
	return crc[0] == frame[length - 2] && crc[1] == frame[length - 1];
}

static void reset_registers(rc522_t *r)
{
	memset(r->regs, 0, sizeof r->regs);
	r->regs[CommandReg] = 0x20;  // RcvOff clear, PowerDown clear: reset values, data sheet 9.3
	r->regs[ControlReg] = 0x10;
	r->regs[0x11] = 0x3F;        // ModeReg
	r->regs[TModeReg] = 0x00;
	r->fifo_length = 0;
}

void rc522_init(rc522_t *r, avr_t *avr, int present)
{
	memset(r, 0, sizeof *r);
	r->avr = avr;
	r->present = present;
	reset_registers(r);
}

// the 5 bytes a card answers at its cascade level: 4 uid bytes (or the cascade tag and 3) + BCC
static void level_bytes(const rc522_card_t *c, uint8_t *out)
{
	int last = (c->length == 4 && c->level == 0) || (c->length == 7 && c->level == 1) ||
			c->level == 2;
	int at = c->level * 3;
	if (last) {
		memcpy(out, c->uid + at, 4);
	} else {
		out[0] = 0x88;  // cascade tag
		memcpy(out + 1, c->uid + at, 3);
	}
	out[4] = out[0] ^ out[1] ^ out[2] ^ out[3];
}

// One card's answer to a frame (0 bytes: silent); its state changes as the standard says.
static int card_answer(rc522_card_t *c, const uint8_t *f, int n, int last_bits, uint8_t *out)
{
	static const uint8_t sel[3] = {0x93, 0x95, 0x97};
	if (n == 1 && last_bits == 7 && (f[0] == 0x26 || f[0] == 0x52)) {  // REQA, WUPA
		if (c->state == IDLE || (c->state == HALT && f[0] == 0x52)) {
			c->state = READY;
			c->level = 0;
			out[0] = c->length == 4 ? 0x04 : c->length == 7 ? 0x44 : 0x84;  // ATQA: uid size
			out[1] = 0x00;
			return 2;
		}
		return 0;
	}
	if (c->state == HALT)
		return 0;  // a halted card hears only WUPA
	if (c->state == READY && n == 2 && last_bits == 0 && f[0] == sel[c->level] && f[1] == 0x20) {
		level_bytes(c, out);
		return 5;
	}
	if (c->state == READY && n == 9 && last_bits == 0 && f[0] == sel[c->level] &&
			f[1] == 0x70 && crc_ok(f, 9)) {
		uint8_t mine[5];
		level_bytes(c, mine);
		if (memcmp(mine, f + 2, 5) != 0) {
			c->state = IDLE;
			return 0;
		}
		int more = mine[0] == 0x88;
		out[0] = more ? 0x04 : (c->length == 4 ? 0x08 : 0x00);  // SAK: MIFARE Classic / NTAG
		crc_a(out, 1, out + 1);
		if (more)
			c->level++;
		else
			c->state = ACTIVE;
		return 3;
	}
	if (c->state == ACTIVE && n == 4 && last_bits == 0 && f[0] == 0x50 && f[1] == 0x00 &&
			crc_ok(f, 4)) {
		c->state = HALT;  // HLTA: no answer
		return 0;
	}
	c->state = IDLE;  // anything unexpected sends a card back to IDLE, silent
	return 0;
}

static avr_cycle_count_t answered(avr_t *avr, avr_cycle_count_t when, void *param)
{
	(void)avr;
	(void)when;
	rc522_t *r = param;
	memcpy(r->fifo, r->reply, r->reply_length);
	r->fifo_length = r->reply_length;
	r->regs[ErrorReg] = r->collision ? 0x08 : 0x00;
	r->regs[ControlReg] = (r->regs[ControlReg] & ~0x07);  // RxLastBits: whole bytes
	r->regs[ComIrqReg] |= 0x20 | 0x04;  // RxIRq, HiAlertIRq
	return 0;  // once
}

static avr_cycle_count_t timed_out(avr_t *avr, avr_cycle_count_t when, void *param)
{
	(void)avr;
	(void)when;
	rc522_t *r = param;
	r->regs[ComIrqReg] |= 0x01;  // TimerIRq
	return 0;  // once
}

static void cancel(rc522_t *r)
{
	avr_cycle_timer_cancel(r->avr, answered, r);
	avr_cycle_timer_cancel(r->avr, timed_out, r);
}

static void transceive(rc522_t *r)
{
	int last_bits = r->regs[BitFramingReg] & 0x07;
	uint8_t frame[64];
	int n = r->fifo_length;
	memcpy(frame, r->fifo, n);
	r->fifo_length = 0;
	r->reply_length = 0;
	r->collision = 0;
	for (int i = 0; i < r->card_count; i++) {
		uint8_t out[16];
		int got = card_answer(&r->cards[i], frame, n, last_bits, out);
		if (!got)
			continue;
		if (r->reply_length && (got != r->reply_length || memcmp(out, r->reply, got) != 0))
			r->collision = 1;
		memcpy(r->reply, out, got);
		r->reply_length = got;
	}
	double tx_us = (n * 9.0 - (last_bits ? 8 - last_bits : 0)) * BIT_US;
	cancel(r);
	if (r->reply_length) {
		double us = tx_us + ANSWER_US + r->reply_length * 9.0 * BIT_US;
		avr_cycle_timer_register_usec(r->avr, (uint32_t)us, answered, r);
	} else {
		// TAuto: the timer starts at the end of the frame, (TReload + 1) ticks of
		// (2 * TPrescaler + 1) / 13.56 MHz
		int prescaler = ((r->regs[TModeReg] & 0x0F) << 8) | r->regs[TPrescalerReg];
		int reload = (r->regs[TReloadRegH] << 8) | r->regs[TReloadRegL];
		double us = tx_us + (reload + 1.0) * (2.0 * prescaler + 1.0) / 13.56;
		avr_cycle_timer_register_usec(r->avr, (uint32_t)us, timed_out, r);
	}
}

static uint8_t read_register(rc522_t *r, uint8_t a)
{
	switch (a) {
	case FIFODataReg: {
		if (!r->fifo_length)
			return 0;
		uint8_t v = r->fifo[0];
		memmove(r->fifo, r->fifo + 1, --r->fifo_length);
		return v;
	}
	case FIFOLevelReg:
		return r->fifo_length;
	case VersionReg:
		return VERSION;
	default:
		return r->regs[a];
	}
}

static void write_register(rc522_t *r, uint8_t a, uint8_t v)
{
	switch (a) {
	case CommandReg:
		if ((v & 0x0F) == CMD_SOFTRESET) {
			cancel(r);
			reset_registers(r);
			return;
		}
		if ((v & 0x0F) == CMD_IDLE)
			cancel(r);
		r->regs[a] = v & 0x3F;
		return;
	case ComIrqReg:
	case DivIrqReg:  // bit 7 (Set1) says whether the marked bits are set or cleared
		if (v & 0x80)
			r->regs[a] |= v & 0x7F;
		else
			r->regs[a] &= ~(v & 0x7F);
		return;
	case FIFODataReg:
		if (r->fifo_length < (int)sizeof r->fifo)
			r->fifo[r->fifo_length++] = v;
		return;
	case FIFOLevelReg:
		if (v & 0x80)
			r->fifo_length = 0;
		return;
	case BitFramingReg:
		r->regs[a] = v & 0x7F;
		if ((v & 0x80) && (r->regs[CommandReg] & 0x0F) == CMD_TRANSCEIVE)
			transceive(r);
		return;
	default:
		r->regs[a] = v;
	}
}

void rc522_select(rc522_t *r, int selected)
{
	if (selected)
		r->byte_index = 0;
}

void rc522_power(rc522_t *r, int on)
{
	if (on && !r->powered) {
		cancel(r);
		reset_registers(r);
	}
	r->powered = on;
}

uint8_t rc522_spi(rc522_t *r, uint8_t in)
{
	if (!r->present || !r->powered)
		return 0x00;
	uint8_t out = 0;
	if (r->byte_index == 0) {  // the address byte: bit 7 read, bits 6-1 the register
		r->reading = (in & 0x80) != 0;
		r->address = (in >> 1) & 0x3F;
	} else if (r->reading) {   // out goes the register named by the byte before
		out = read_register(r, r->address);
		r->address = (in >> 1) & 0x3F;
	} else {
		write_register(r, r->address, in);
	}
	r->byte_index++;
	return out;
}

int rc522_put(rc522_t *r, const uint8_t *uid, int length)
{
	if (r->card_count == RC522_MAX_CARDS || !(length == 4 || length == 7 || length == 10))
		return -1;
	rc522_card_t *c = &r->cards[r->card_count++];
	memset(c, 0, sizeof *c);
	memcpy(c->uid, uid, length);
	c->length = length;
	c->state = IDLE;  // the field powers it up
	return 0;
}

void rc522_lift(rc522_t *r)
{
	r->card_count = 0;
}
