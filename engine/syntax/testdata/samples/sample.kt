// A small file for the golden test.
package com.example

import kotlin.math.max

const val LIMIT = 10

/** A point in the plane. */
data class Point(val x: Int, val y: Int) {
    fun norm(): Int = max(x, y)

    companion object Factory {
        fun origin() = Point(0, 0)
    }
}

object Registry {
    private val items = mutableListOf<String>()

    @JvmStatic
    fun register(name: String) {
        items.add(name)
    }
}

typealias Points = List<Point>

enum class Color {
    RED, GREEN;

    fun hex(): String = "#000"
}

fun Point.shifted(dx: Int): Point = Point(x + dx, y)
