<?php
// A small file for the golden test.
namespace App\Http;

use Psr\Log\LoggerInterface;

/**
 * Routes requests.
 */
#[Attribute]
class Router
{
    private array $routes = [];

    public function __construct(private LoggerInterface $log) {}

    /** add registers a route. */
    public function add(string $path, callable $handler): void
    {
        $this->routes[$path] = $handler;
    }
}

interface Middleware
{
    public function handle($request);
}

trait Loggable
{
    public function log(string $m): void {}
}

enum Status: int
{
    case Ok = 200;
}

function helper(int $x): int
{
    return $x * 2;
}
