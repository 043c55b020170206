// Repetition oracle: a driver for chessdb's Xiangqi board code (xiangqi.cpp, public domain), which
// is not part of this repository; build.sh fetches it and builds outside the checkout.
//
// Reads lines "FEN<TAB>m1 m2 ..." (ICCS moves, files a-i, ranks 0-9, Red at ranks 0-4) on
// stdin and writes one line per input line:
//   OK<TAB>FINAL_FEN<TAB>RULINGS   RULINGS: space-separated "p:K1:K2" for each ply p (after
//                                  the first p moves) where rep_check(1) or rep_check(2) is
//                                  not Rep_None; K is D (draw), R (Red wins), B (Black wins)
//                                  or - (Rep_None)
//   ERR<TAB>MESSAGE                bad FEN, malformed or illegal move
// The position is set up and each move checked and played as chessdb's ccbrulecheck does
// (ccboard.cpp, with verify on); rep_check is asked after every move.
// Options: --selfcheck also checks that rep_check leaves the board as it found it.

#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "xiangqi.h"

namespace {

char verdict_char(int rep, int turn)
{
	// turn: the side to move after the ply; Rep_Me_Ban means it loses.
	switch (rep) {
	case Rep_None: return '-';
	case Rep_Draw: return 'D';
	case Rep_Me_Ban: return turn == White ? 'B' : 'R';
	case Rep_Opp_Ban: return turn == White ? 'R' : 'B';
	}
	return '?';
}

bool iccs_ok(const std::string& m)
{
	return m.size() == 4 && m[0] >= 'a' && m[0] <= 'i' && m[1] >= '0' && m[1] <= '9' &&
		m[2] >= 'a' && m[2] <= 'i' && m[3] >= '0' && m[3] <= '9';
}

struct Snapshot {
	BITBOARD blockers;
	BITBOARD pieces[16];
	INT8 number[16];
	INT8 square[90];
	S8 turn;
	U64 key;
	size_t stack_size;

	explicit Snapshot(const Position& p)
		: blockers(p.blockers), turn(p.turn), key(p.key), stack_size(p.stack.size())
	{
		for (int i = 0; i < 16; i++) pieces[i] = p.pieces[i];
		memcpy(number, p.number, sizeof(number));
		memcpy(square, p.square, sizeof(square));
	}
	bool same(const Position& p) const
	{
		for (int i = 0; i < 16; i++)
			if (pieces[i] != p.pieces[i]) return false;
		return blockers == p.blockers && turn == p.turn && key == p.key &&
			stack_size == p.stack.size() && !memcmp(number, p.number, sizeof(number)) &&
			!memcmp(square, p.square, sizeof(square));
	}
};

std::string judge_line(const std::string& line, bool selfcheck)
{
	size_t tab = line.find('\t');
	std::string fen = tab == std::string::npos ? line : line.substr(0, tab);
	std::string rest = tab == std::string::npos ? "" : line.substr(tab + 1);

	Position pos;
	if (!pos.from_fen(fen.c_str()))
		return "ERR\tbad FEN: " + fen;
	pos.key = pos.pos_key();

	std::istringstream in(rest);
	std::string m, out;
	int ply = 0;
	while (in >> m) {
		ply++;
		if (!iccs_ok(m))
			return "ERR\tply " + std::to_string(ply) + ": malformed move " + m;
		int move = move_from_string(m.c_str());
		bool legal = pos.move_is_pseudo(move) &&
			(pos.in_check(pos.turn) ? pos.pseudo_is_legal_incheck(move) : pos.pseudo_is_legal(move));
		if (!legal)
			return "ERR\tply " + std::to_string(ply) + ": illegal move " + m;
		pos.move_do(move);

		int r1, r2;
		if (selfcheck) {
			Snapshot before(pos);
			r1 = pos.rep_check(1);
			r2 = pos.rep_check(2);
			if (!before.same(pos))
				return "ERR\tply " + std::to_string(ply) + ": rep_check changed the position";
		} else {
			r1 = pos.rep_check(1);
			r2 = pos.rep_check(2);
		}
		if (r1 != Rep_None || r2 != Rep_None) {
			if (!out.empty()) out += ' ';
			out += std::to_string(ply);
			out += ':';
			out += verdict_char(r1, pos.turn);
			out += ':';
			out += verdict_char(r2, pos.turn);
		}
	}
	char final_fen[128];
	pos.to_fen(final_fen);
	return std::string("OK\t") + final_fen + "\t" + out;
}

}  // namespace

int main(int argc, char** argv)
{
	bool selfcheck = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--selfcheck"))
			selfcheck = true;
		else {
			fprintf(stderr, "usage: %s [--selfcheck] < lines\n", argv[0]);
			return 2;
		}
	}
	init();
	std::ios::sync_with_stdio(false);
	std::string line;
	while (std::getline(std::cin, line)) {
		if (!line.empty() && line.back() == '\r')
			line.pop_back();
		std::cout << judge_line(line, selfcheck) << '\n';
	}
	std::cout.flush();
	return 0;
}
