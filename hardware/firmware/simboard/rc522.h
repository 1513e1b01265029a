// An MFRC522 reader as its SPI bus sees it, with ISO/IEC 14443-3 type A cards on its antenna:
// registers, FIFO, the Transceive command with the chip's timer, and cards that answer REQA/WUPA,
// anticollision, select by cascade level and HLTA (and go quiet once halted).
#pragma once

#include <stdint.h>

#include "sim_avr.h"

#define RC522_MAX_CARDS 8

typedef struct rc522_card_t {
	uint8_t uid[10];
	uint8_t length;   // 4, 7 or 10
	uint8_t state;    // IDLE, READY, ACTIVE, HALT
	uint8_t level;    // cascade level being selected
} rc522_card_t;

typedef struct rc522_t {
	avr_t *avr;
	int present;      // 0: nothing answers on the bus (a reader not wired, or broken)
	int powered;      // its RST line is high
	uint8_t regs[64];
	uint8_t fifo[64];
	int fifo_length;
	int byte_index;   // in the current SPI transaction (chip select low)
	int reading;
	uint8_t address;
	uint8_t reply[16];
	int reply_length;
	int collision;
	rc522_card_t cards[RC522_MAX_CARDS];
	int card_count;
} rc522_t;

void rc522_init(rc522_t *r, avr_t *avr, int present);
void rc522_select(rc522_t *r, int selected);   // chip select went low (1) or high (0)
void rc522_power(rc522_t *r, int on);          // the RST line
uint8_t rc522_spi(rc522_t *r, uint8_t in);     // a byte in on MOSI; the byte out on MISO
int rc522_put(rc522_t *r, const uint8_t *uid, int length);  // a card laid on the antenna
void rc522_lift(rc522_t *r);                   // every card taken off
